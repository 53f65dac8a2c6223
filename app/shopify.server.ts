import "@shopify/shopify-app-remix/adapters/node";
import { AppDistribution, shopifyApp } from "@shopify/shopify-app-remix/server";
import { PrismaSessionStorage } from "@shopify/shopify-app-session-storage-prisma";
import { DEFAULT_BACKFILL_DAYS, requestBackfill } from "./backfill/request.server";
import prisma from "./db.server";
import { routeShopRequestsTo } from "./shopify/admin-api-origin.server";
import { ADMIN_API_VERSION } from "./shopify/api-version";
import { SealedSessionStorage, sessionKeys } from "./shopify/sealed-session-storage.server";
import { config } from "./config/env.server";

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
      // A new shop's history is verified once, on install; later backfills are asked for from the dashboard or the CLI.
      if ((await prisma.backfill.count({ where: { shop: session.shop } })) === 0) {
        await requestBackfill(prisma, session.shop, DEFAULT_BACKFILL_DAYS, "install", new Date());
      }
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
