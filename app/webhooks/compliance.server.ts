import type { ActionFunctionArgs } from "@remix-run/node";
import { authenticateWebhook } from "./authenticate.server";
export { postOnly as complianceLoader } from "./authenticate.server";

/** The mandatory compliance topics: authenticated (401 on a bad HMAC, as App Store review requires) and acknowledged. */
export async function complianceAction({ request }: ActionFunctionArgs) {
  await authenticateWebhook(request);
  return new Response();
}
