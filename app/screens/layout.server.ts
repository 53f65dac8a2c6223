import { narrowScreenLikely } from "../lib/http/device";
import { config } from "../lib/config/env.server";
import type { ScreenContext } from "./context.server";

/**
 * The embedded frame every screen lives in: App Bridge's key and address, whether a phone's layout
 * is likely (so the server renders it), and the shop's time zone for screens whose own data does
 * not carry it (the request page): once stored, one read of the shop's row.
 */
export async function load({ request, timeZone }: ScreenContext) {
  return {
    apiKey: config().SHOPIFY_API_KEY,
    appBridgeUrl: config().APP_BRIDGE_URL,
    narrowLikely: narrowScreenLikely(request.headers),
    timeZone: await timeZone(),
  };
}
