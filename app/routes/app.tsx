import type { HeadersFunction, MetaFunction } from "@remix-run/node";
import { Link, Outlet, isRouteErrorResponse, useLoaderData, useLocation, useRouteError, useRouteLoaderData } from "@remix-run/react";
import { boundary } from "@shopify/shopify-app-remix/server";
import { AppProvider } from "@shopify/shopify-app-remix/react";
import { NavMenu } from "@shopify/app-bridge-react";
import polarisStyles from "@shopify/polaris/build/esm/styles.css?url";
import { NotFoundPage } from "../components/ui";
import { screenLoader } from "../screens/context.server";
import { load } from "../screens/layout.server";
import { afterEveryAction } from "../components/revalidate";

export const links = () => [{ rel: "stylesheet", href: polarisStyles }];

/** Every page has a title; routes name themselves, this is the default and the error page's. */
export const meta: MetaFunction = ({ error, location }) => [
  { title: error ? `${notFoundText(location.pathname).title} · Refund Verifier` : "Refund Verifier" },
];

export const loader = screenLoader(load);

export const shouldRevalidate = afterEveryAction;

type LayoutData = { apiKey: string; appBridgeUrl?: string; narrowLikely: boolean; timeZone: string };

/** The embedded frame every screen lives in: App Bridge, Polaris, the app's navigation and the main landmark. */
function Shell({ data, children }: { data: LayoutData | undefined; children: React.ReactNode }) {
  return (
    <AppProvider isEmbeddedApp apiKey={data?.apiKey ?? ""} {...(data?.appBridgeUrl ? { __APP_BRIDGE_URL: data.appBridgeUrl } : {})}>
      <NavMenu>
        <Link to="/app" rel="home">
          Refunds
        </Link>
        <Link to="/app/review">Review queue</Link>
        <Link to="/app/settings/alerts">Alerts</Link>
        <Link to="/app/settings/limits">Refund limits</Link>
      </NavMenu>
      <main>{children}</main>
    </AppProvider>
  );
}

export default function App() {
  const data = useLoaderData<typeof loader>();
  return (
    <Shell data={data}>
      <Outlet />
    </Shell>
  );
}

/** What is missing, from the address that was asked for. */
function notFoundText(pathname: string | undefined): { title: string; message: string } {
  if (pathname && /^\/app\/refunds\/[^/]+/.test(pathname)) {
    return {
      title: "Refund not found",
      message: "This shop has no refund with this id. The link may be wrong or old, or the refund's data was erased at the shop's request.",
    };
  }
  if (pathname && /^\/app\/orders\/[^/]+/.test(pathname)) {
    return {
      title: "Order not found",
      message: "This shop has no order with this id, or the app may not read it. Find the order in Shopify admin and start the refund from there.",
    };
  }
  return { title: "Page not found", message: "The app has no page at this address." };
}

/**
 * A nested route that throws a 404 (an unknown refund or order) lands here: a Polaris page in the
 * app's frame with its navigation and a way back. Every other thrown response goes to Shopify's
 * boundary, which needs to see them (their headers carry the re-authentication).
 */
export function ErrorBoundary() {
  const error = useRouteError();
  const data = useRouteLoaderData<typeof loader>("routes/app");
  const { pathname } = useLocation();
  if (isRouteErrorResponse(error) && error.status === 404) {
    const text = notFoundText(pathname);
    return (
      <Shell data={data}>
        <NotFoundPage title={text.title} message={text.message} />
      </Shell>
    );
  }
  return boundary.error(error);
}

export const headers: HeadersFunction = (headersArgs) => boundary.headers(headersArgs);
