import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { buildClientSchema, type GraphQLSchema, type IntrospectionQuery } from "graphql";
import { ADMIN_API_VERSION } from "../app/shopify/api-version";

export { ADMIN_API_VERSION };

/** Shopify's supported stable versions on 2026-11-30, oldest first. */
export const SUPPORTED_API_VERSIONS = ["2026-01", "2026-04", "2026-07", "2026-10"] as const;
export type SupportedApiVersion = (typeof SUPPORTED_API_VERSIONS)[number];

/**
 * The version that answers a request for `requested`: itself when supported; the oldest supported
 * one for an older release ("fall forward", as Shopify documents); undefined for anything else.
 * A well-formed version newer than the newest is refused (404): what Shopify does for it is
 * not in its documents.
 */
export function resolveApiVersion(requested: string): SupportedApiVersion | undefined {
  if ((SUPPORTED_API_VERSIONS as readonly string[]).includes(requested)) return requested as SupportedApiVersion;
  if (!/^\d{4}-(01|04|07|10)$/.test(requested)) return undefined;
  return requested < SUPPORTED_API_VERSIONS[0] ? SUPPORTED_API_VERSIONS[0] : undefined;
}

/** refundCreate's description: the `@idempotent` key is optional in 2026-01 and required from 2026-04. */
export const idempotencyRequired = (version: string) => version >= "2026-04";

let cachedSchema: GraphQLSchema | undefined;

/**
 * Shopify's published introspection schema of ADMIN_API_VERSION, vendored by the app. Every
 * supported version is served with it: between 2026-01 and 2026-10 nothing the app selects
 * changed except refundCreate's idempotency rule, which depends on the request's version.
 */
export function adminSchema(): GraphQLSchema {
  if (!cachedSchema) {
    const file = new URL(`../app/shopify/admin/schema/admin-${ADMIN_API_VERSION}.schema.json.gz`, import.meta.url);
    const json = JSON.parse(gunzipSync(readFileSync(file)).toString("utf8")) as { data: IntrospectionQuery };
    cachedSchema = buildClientSchema(json.data);
  }
  return cachedSchema;
}
