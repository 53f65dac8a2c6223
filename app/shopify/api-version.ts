import { ApiVersion } from "@shopify/shopify-api";

/**
 * The one Admin API version the app speaks: shopifyApp, every Admin URL, the vendored schema
 * (`app/shopify/admin/schema/admin-<version>.schema.json.gz`), the fake Shopify, and (checked by a
 * test) shopify.app.toml's [webhooks] and the extension's toml. Named by the library's own enum, so
 * a version the library does not know does not type-check. Scripts read the member's name here.
 */
export const ADMIN_API_VERSION = ApiVersion.October26;
