import "@shopify/shopify-app-remix/adapters/node";
import { AppDistribution, shopifyApp } from "@shopify/shopify-app-remix/server";
import { PrismaSessionStorage } from "@shopify/shopify-app-session-storage-prisma";
import prisma from "./db.server";
import { routeShopRequestsTo } from "./shopify/admin-api-origin.server";
import { ADMIN_API_VERSION } from "./shopify/api-version";
import { SealedSessionStorage, sessionKeys } from "./shopify/sealed-session-storage.server";
import { ShopifyGateway } from "./shopify/admin/gateway.server";
import { offlineClient } from "./shopify/admin/offline-client.server";
import { databaseBuckets } from "./shopify/admin/shared-bucket.server";
import { config } from "./lib/config/env.server";

/**
 * What a shop's authentication starts besides its sessions (its history's first backfill): handed
 * in by the app's entry (entry.server.tsx, `whenInstalled`), since this module imports no
 * capability (decision 036). Each step decides for itself whether this is a first install.
 */
type InstallStep = (shop: string, now: Date) => Promise<unknown>;
const installSteps = new Map<string, InstallStep>();
/** Runs `step` after every install; a name registered again (the entry loaded anew in development) replaces its step. */
export function whenInstalled(name: string, step: InstallStep): void {
  installSteps.set(name, step);
}

const env = config();
if (env.SHOPIFY_ADMIN_API_ORIGIN) routeShopRequestsTo(env.SHOPIFY_ADMIN_API_ORIGIN);

const shopify = shopifyApp({
  apiKey: env.SHOPIFY_API_KEY,
  apiSecretKey: env.SHOPIFY_API_SECRET,
  apiVersion: ADMIN_API_VERSION,
  scopes: env.SCOPES.split(","),
  appUrl: env.SHOPIFY_APP_URL ?? "",
  authPathPrefix: "/auth",
  sessionStorage: new SealedSessionStorage(new PrismaSessionStorage(prisma), sessionKeys()),
  distribution: AppDistribution.AppStore,
  // Who makes a request, as Shopify says it: a staff member's first request is exchanged for an
  // online token too, whose session names them and says whether they own the shop (app/staff/,
  // decision 029). Background work reads with the shop's offline session (unauthenticated.admin).
  useOnlineTokens: true,
  hooks: {
    // A reinstall after app/uninstalled: observing starts again for the shop.
    afterAuth: async ({ session }) => {
      await prisma.shopState.updateMany({ where: { shop: session.shop }, data: { uninstalledAt: null } });
      for (const step of installSteps.values()) await step(session.shop, new Date());
    },
  },
  future: {
    unstable_newEmbeddedAuthStrategy: true,
    expiringOfflineAccessTokens: true,
  },
});

export default shopify;
export const addDocumentResponseHeaders = shopify.addDocumentResponseHeaders;
export const authenticate = shopify.authenticate;
export const unauthenticated = shopify.unauthenticated;
export const login = shopify.login;
export const sessionStorage = shopify.sessionStorage;

/** The GraphQL Admin API with a shop's offline session: what background work and the screens read Shopify with. */
export const offlineGraphql = offlineClient((shop) => unauthenticated.admin(shop));

let interactive: ShopifyGateway | undefined;

/** For requests a person is waiting on (the refund form, a screen's shop profile): the shop's bucket shared with the workers. */
export function interactiveGateway(): ShopifyGateway {
  interactive ??= ShopifyGateway.sharing(offlineGraphql, databaseBuckets(prisma));
  return interactive;
}
