import { decode } from "turbo-stream";
import { mintSessionToken } from "../../fake-shopify/session-token";
import { TEST_APP } from "./credentials";

export const CHROME_UA = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
/** Chrome on an Android phone (Lighthouse's mobile preset says the same): the server renders a phone's layout for it. */
export const PHONE_UA = "Mozilla/5.0 (Linux; Android 11; moto g power (2022)) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36";

/** A request as App Bridge makes it from inside the admin: a fresh session token in Authorization. */
export function embeddedFetch(appUrl: string, shop: string, userId = "42") {
  return async (path: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    headers.set("Authorization", `Bearer ${mintSessionToken({ shop, apiKey: TEST_APP.apiKey, secret: TEST_APP.secret, userId })}`);
    headers.set("User-Agent", CHROME_UA);
    const response = await fetch(`${appUrl}${path}`, { ...init, headers, redirect: "manual" });
    return isDataPath(path) ? routeAnswer(response, path, init.method ?? "GET") : response;
  };
}

const ROUTE = "_routes";

/**
 * A Remix data request for one route's loader (GET) or action (POST), as the browser's single fetch
 * makes it (Remix's `v3_singleFetch`): `/app/review.data?_routes=routes/app.review`; an index route's
 * action is posted with `?index`.
 */
export function dataPath(path: string, routeId: string): string {
  const url = new URL(path, "http://app.invalid");
  url.pathname = url.pathname === "/" ? "/_root.data" : `${url.pathname.replace(/\/$/, "")}.data`;
  url.searchParams.set(ROUTE, routeId);
  if (routeId.endsWith("._index")) url.searchParams.set("index", "");
  return `${url.pathname}${url.search}`;
}

const isDataPath = (path: string) => new URL(path, "http://app.invalid").pathname.endsWith(".data");

/** What one route's part of a single fetch answer holds: its data, what it threw, or a redirect. */
type RoutePart = { data: unknown } | { error: unknown } | { redirect: string; status: number };

/** Shopify's and Remix's own plugins for what turbo-stream carries besides plain data (errors, thrown responses, redirects). */
const PLUGINS = [
  (type: string, ...rest: unknown[]) => {
    if (type === "SanitizedError") return { value: Object.assign(new Error(String(rest[1])), { name: String(rest[0]) }) };
    if (type === "ErrorResponse") return { value: { status: rest[1], statusText: rest[2], data: rest[0] } };
    if (type === "SingleFetchRedirect") return { value: { redirect: rest[0] } };
    return undefined;
  },
  (type: string, value: unknown) => {
    if (type === "SingleFetchFallback") return { value: undefined };
    if (type === "SingleFetchClassInstance") return { value };
    return undefined;
  },
];

/**
 * The answer of one route as the page receives it: the response's status and headers, and as its
 * JSON body the route's data, what it threw (a thrown Response's body), or the redirect it asked
 * for, decoded from single fetch's turbo-stream as Remix's client decodes it.
 */
async function routeAnswer(response: Response, path: string, method: string): Promise<Response> {
  if (!response.body || !response.headers.get("content-type")?.includes("text/x-script")) return response;
  const routeId = new URL(path, "http://app.invalid").searchParams.get(ROUTE) ?? "";
  const body = await decoded(response.body);
  // A loader's answer names its routes; a redirect, or an action's answer, is the route's own.
  const routes = body as Record<string, RoutePart> | undefined;
  const part = (method === "GET" && routes && !("redirect" in routes) ? routes[routeId] : body) as RoutePart | { redirect: RoutePart } | undefined;
  const headers = new Headers(response.headers);
  headers.set("content-type", "application/json");
  return new Response(JSON.stringify(unwrap(part) ?? null), { status: response.status, statusText: response.statusText, headers });
}

async function decoded(stream: ReadableStream<Uint8Array>): Promise<unknown> {
  const result = await decode(stream, { plugins: PLUGINS });
  await result.done;
  return result.value;
}

function unwrap(part: RoutePart | { redirect: RoutePart } | undefined): unknown {
  if (!part) return undefined;
  if ("data" in part) return part.data;
  if ("error" in part) {
    const error = part.error as { data?: unknown } | undefined;
    return error && typeof error === "object" && "data" in error ? error.data : error;
  }
  return part.redirect && typeof part.redirect === "object" ? part.redirect : part;
}
