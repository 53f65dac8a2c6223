import type { MetaFunction } from "@remix-run/node";
import { screenLoader } from "../screens/context.server";
import { NotFoundPage } from "../components/ui";

export const meta: MetaFunction = () => [{ title: "Page not found · Refund Verifier" }];

/** Any address under /app that no screen answers: a 404, shown in the app's frame. */
export const loader = screenLoader(async () => {
  throw new Response("No such page", { status: 404 });
});

export default function UnknownPage() {
  return <NotFoundPage title="Page not found" message="The app has no page at this address." />;
}

export function ErrorBoundary() {
  return <NotFoundPage title="Page not found" message="The app has no page at this address. The refunds and the review queue are in the app's navigation." />;
}
