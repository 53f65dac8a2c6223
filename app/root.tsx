import { useEffect } from "react";
import type { MetaFunction } from "@remix-run/node";
import { Links, Meta, Outlet, Scripts, ScrollRestoration, isRouteErrorResponse, useRouteError, useRouteLoaderData } from "@remix-run/react";
import { ErrorReference } from "./lib/logging/request-id";
import { markHydrated } from "./components/ServerRendered";
import { INTER_FONT_FACES, INTER_LATIN_URL } from "./styles/fonts";

export const meta: MetaFunction = ({ error }) => [{ title: error ? "Something went wrong · Refund Verifier" : "Refund Verifier" }];

function Document({ children }: { children: React.ReactNode }) {
  const phone = useRouteLoaderData<{ narrowLikely?: boolean }>("routes/app")?.narrowLikely ?? false;
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width,initial-scale=1" />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        <link rel="icon" href="/favicon-32.png" type="image/png" sizes="32x32" />
        {/* A phone keeps its own system font (docs/decisions/033): Inter's 47 KB waited for on a slow line before any text showed. */}
        {phone ? null : <link rel="preload" href={INTER_LATIN_URL} as="font" type="font/woff2" crossOrigin="anonymous" />}
        {phone ? null : <style dangerouslySetInnerHTML={{ __html: INTER_FONT_FACES }} />}
        <Meta />
        <Links />
      </head>
      <body>
        {children}
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

export default function App() {
  // Effects run once React has attached its handlers: the browser tests wait for this mark before they click.
  useEffect(() => {
    markHydrated();
    document.documentElement.dataset.hydrated = "true";
  }, []);
  return (
    <Document>
      <Outlet />
    </Document>
  );
}

/** The last resort (the app's own layout could not render): a plain page that still says what happened and leads back. */
export function ErrorBoundary() {
  const error = useRouteError();
  const missing = isRouteErrorResponse(error) && error.status === 404;
  const title = missing ? "Page not found" : "Something went wrong";
  return (
    <Document>
      <main style={{ fontFamily: "Inter, -apple-system, sans-serif", maxWidth: 640, margin: "48px auto", padding: "0 16px", color: "#303030" }}>
        <h1 style={{ fontSize: 20 }}>{title}</h1>
        <p>
          {missing
            ? "Refund Verifier has no page at this address."
            : "Refund Verifier could not show this page. Try again in a moment; if it keeps failing, contact support with the reference below."}
        </p>
        {missing ? null : <ErrorReference />}
        <p>
          <a href="/app" style={{ color: "#005bd3" }}>
            Back to the refunds
          </a>
        </p>
      </main>
    </Document>
  );
}
