import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import db from "../db.server";
import { authenticateWebhook, badPayload, postOnly } from "../webhooks/authenticate.server";
import { askAboutScopesAgain } from "../shops/payments.server";

export const loader = postOnly;

/** Shopify's app/scopes_update body: the scopes granted now (and before, which the app does not need). */
const scopesUpdate = z.object({ current: z.array(z.string()) });

/**
 * A hint, never a record: Shopify signs the body only, and the body names no shop, so one signed
 * delivery replayed under another shop's header (or an old one arriving late) would rewrite that
 * shop's scopes. The delivery only makes the next settlement pass ask Shopify what the shop grants
 * (decision 017).
 */
export const action = async ({ request }: ActionFunctionArgs) => {
  const { payload, session, shop } = await authenticateWebhook(request, "APP_SCOPES_UPDATE");
  if (!scopesUpdate.safeParse(payload).success) return badPayload("app/scopes_update payload needs current: string[]");
  if (session) await askAboutScopesAgain(db, shop);
  return new Response();
};
