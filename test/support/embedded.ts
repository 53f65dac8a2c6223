import { mintSessionToken } from "../../fake-shopify/session-token";
import { TEST_APP } from "./credentials";

export const CHROME_UA = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
/** Chrome on an Android phone (Lighthouse's mobile preset says the same): the server renders a phone's layout for it. */
export const PHONE_UA = "Mozilla/5.0 (Linux; Android 11; moto g power (2022)) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36";

/** A request as App Bridge makes it from inside the admin: a fresh session token in Authorization. */
export function embeddedFetch(appUrl: string, shop: string, userId = "42") {
  return (path: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    headers.set("Authorization", `Bearer ${mintSessionToken({ shop, apiKey: TEST_APP.apiKey, secret: TEST_APP.secret, userId })}`);
    headers.set("User-Agent", CHROME_UA);
    return fetch(`${appUrl}${path}`, { ...init, headers, redirect: "manual" });
  };
}

/** A Remix data request for one route's loader or action. */
export function dataPath(path: string, routeId: string): string {
  return `${path}${path.includes("?") ? "&" : "?"}_data=${encodeURIComponent(routeId)}`;
}
