import type { ActionFunctionArgs } from "@remix-run/node";
import db from "../db.server";
import { postOnly, authenticateWebhook } from "../webhooks/authenticate.server";

export const loader = postOnly;

export const action = async ({ request }: ActionFunctionArgs) => {
  const { shop } = await authenticateWebhook(request);
  // Deliveries repeat and can arrive after the sessions are gone: deleting nothing is fine.
  await db.session.deleteMany({ where: { shop } });
  return new Response();
};
