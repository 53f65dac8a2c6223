import type { ActionFunctionArgs } from "@remix-run/node";
import { bulkOperationFinished } from "../backfill/backfill.server";
import db from "../db.server";
import { authenticateWebhook, badPayload, postOnly } from "../webhooks/authenticate.server";

export const loader = postOnly;

/** Shopify says a bulk operation ended: the backfill reading it goes on now instead of at its next poll. */
export const action = async ({ request }: ActionFunctionArgs) => {
  const { shop, payload } = await authenticateWebhook(request, "BULK_OPERATIONS_FINISH");
  const id = (payload as { admin_graphql_api_id?: unknown } | null)?.admin_graphql_api_id;
  if (typeof id !== "string" || !id.startsWith("gid://shopify/BulkOperation/")) return badPayload("bulk_operations/finish without admin_graphql_api_id");
  await bulkOperationFinished(db, shop, id, new Date());
  return new Response();
};
