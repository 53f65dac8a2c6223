import { GraphqlQueryError, HttpResponseError, HttpThrottlingError } from "@shopify/shopify-api";
import { TransportError, type AdminResponse, type ShopGraphql, type ShopifyGraphqlError } from "./transport";
import { config } from "../../lib/config/env.server";

function headerValue(headers: unknown, name: string): string | null {
  const value = (headers as Record<string, string | string[] | undefined> | undefined)?.[name];
  return (Array.isArray(value) ? value[0] : value) ?? null;
}

/** What Shopify's library gives for a shop's offline session (`unauthenticated.admin` of app/shopify.server.ts). */
export type OfflineAdmin = (shop: string) => Promise<{
  admin: { graphql(query: string, options: { variables?: Record<string, unknown>; signal?: AbortSignal }): Promise<Response> };
}>;

/**
 * The GraphQL Admin API with the shop's offline session, through Shopify's own client (handed in by
 * app/shopify.server.ts, which this folder never imports). The client throws on any `errors` entry;
 * the thrown error carries the whole body, which is handed on as an answer so that per-node errors
 * leave the other nodes' data usable.
 */
export const offlineClient =
  (offlineAdmin: OfflineAdmin) =>
  async (shop: string): Promise<ShopGraphql> => {
    // The session is read (and an expiring token refreshed) before the gateway takes the request's
    // points from the bucket, so that between the two only the request's own timeout can pass: the
    // shared bucket counts a request in flight that long (decision 035). A failure here is the
    // gateway's to name (no offline session).
    const { admin } = await offlineAdmin(shop);
    return async (query, variables) => {
      const timeoutMs = config().VERIFIER_REQUEST_TIMEOUT_MS;
      const timeout = AbortSignal.timeout(timeoutMs);
      try {
        const response = await admin.graphql(query, { variables, signal: timeout });
        const body = (await response.json()) as { data?: unknown; extensions?: AdminResponse["extensions"]; headers?: unknown };
        return { data: body.data, extensions: body.extensions, apiVersion: headerValue(body.headers, "X-Shopify-Api-Version") };
      } catch (error) {
        if (error instanceof GraphqlQueryError) {
          const body = error.body as
            { data?: unknown; errors?: { graphQLErrors?: ShopifyGraphqlError[] }; extensions?: AdminResponse["extensions"] } | undefined;
          return {
            data: body?.data,
            errors: body?.errors?.graphQLErrors ?? [{ message: error.message }],
            extensions: body?.extensions,
            apiVersion: headerValue(error.headers, "X-Shopify-Api-Version"),
          };
        }
        if (error instanceof HttpThrottlingError) {
          const retryAfter = (error.response as { retryAfter?: number }).retryAfter;
          throw new TransportError(
            "http",
            "HTTP 429 Too Many Requests",
            429,
            retryAfter !== undefined && Number.isFinite(retryAfter) ? retryAfter * 1000 : undefined,
          );
        }
        if (error instanceof HttpResponseError) {
          throw new TransportError("http", `HTTP ${error.response.code} ${error.response.statusText ?? ""}`.trim(), error.response.code);
        }
        if (timeout.aborted) throw new TransportError("timeout", `timed out after ${timeoutMs / 1000} s`);
        throw new TransportError("network", `no answer from Shopify: ${(error as Error)?.message ?? String(error)}`);
      }
    };
  };
