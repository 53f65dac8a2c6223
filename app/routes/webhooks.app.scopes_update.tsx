import type { ActionFunctionArgs } from "@remix-run/node";
import db from "../db.server";
import { authenticateWebhook, badPayload, postOnly } from "../webhooks/authenticate.server";
import { forgetPaymentsAccess } from "../settlement/access.server";

export const loader = postOnly;

export const action = async ({ request }: ActionFunctionArgs) => {
  const { payload, session } = await authenticateWebhook(request, "APP_SCOPES_UPDATE");
  const current = (payload as { current?: unknown } | null)?.current;
  if (!Array.isArray(current) || !current.every((scope) => typeof scope === "string")) {
    return badPayload("app/scopes_update payload needs current: string[]");
  }
  if (session) await db.session.update({ where: { id: session.id }, data: { scope: current.join(",") } });
  // A scope granted or withdrawn: the settlement pass asks Shopify about the shop's payouts again.
  if (session) await forgetPaymentsAccess(db, session.shop);
  return new Response();
};
