import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import db from "../db.server";
import { authenticateWebhook, badPayload, postOnly } from "../webhooks/authenticate.server";
import { recordGrantedScopes } from "../shops/scopes.server";

export const loader = postOnly;

/** Shopify's app/scopes_update body: the scopes granted now (and before, which the app does not need). */
const scopesUpdate = z.object({ current: z.array(z.string()) });

export const action = async ({ request }: ActionFunctionArgs) => {
  const { payload, session } = await authenticateWebhook(request, "APP_SCOPES_UPDATE");
  const parsed = scopesUpdate.safeParse(payload);
  if (!parsed.success) return badPayload("app/scopes_update payload needs current: string[]");
  if (session) await recordGrantedScopes(db, session, parsed.data.current);
  return new Response();
};
