import type { PrismaClient } from "@prisma/client";
import { z } from "zod";
import { GRANTED_SCOPES_QUERY, QUERY_COSTS } from "../shopify/admin/documents";
import type { ShopifyGateway } from "../shopify/admin/gateway.server";
import { malformed, type Failed } from "../shopify/admin/nodes.server";

/**
 * The scopes Shopify says the shop granted (currentAppInstallation.accessScopes, read with the
 * shop's own token), kept on its offline session as the Shopify library keeps them. Only an answer
 * of Shopify's is recorded here, never a webhook's body.
 */
export async function recordGrantedScopes(db: PrismaClient, shop: string, scopes: string[]): Promise<void> {
  await db.session.updateMany({ where: { shop, isOnline: false }, data: { scope: scopes.join(",") } });
}

const grantedScopes = z.object({ currentAppInstallation: z.object({ accessScopes: z.array(z.object({ handle: z.string() })) }) });

/** The access scopes the shop has granted the app, as Shopify answers the shop's own token. */
export async function readGrantedScopes(gateway: ShopifyGateway, shop: string): Promise<{ ok: true; scopes: string[] } | Failed> {
  const answer = await gateway.request(shop, GRANTED_SCOPES_QUERY, {}, QUERY_COSTS.grantedScopes, { waitThrottled: true });
  if (!answer.ok) return answer;
  const parsed = grantedScopes.safeParse(answer.data);
  if (!parsed.success) return malformed("malformed response: the installation's access scopes are not as the schema says");
  return { ok: true, scopes: parsed.data.currentAppInstallation.accessScopes.map((scope) => scope.handle) };
}
