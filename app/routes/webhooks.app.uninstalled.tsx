import type { ActionFunctionArgs } from "@remix-run/node";
import db from "../db.server";
import { stopObservingShop } from "../privacy/privacy.server";
import { authenticateWebhook, postOnly } from "../webhooks/authenticate.server";

export const loader = postOnly;

export const action = async ({ request }: ActionFunctionArgs) => {
  const { shop } = await authenticateWebhook(request, "APP_UNINSTALLED");
  // Deliveries repeat and can arrive after the sessions are gone: doing it twice is harmless.
  await stopObservingShop(db, shop, new Date());
  return new Response();
};
