/**
 * The one Admin API version the app speaks: shopifyApp, every Admin URL, the vendored schema
 * (`app/shopify/admin/schema/admin-<version>.schema.json.gz`), the fake Shopify, and (checked by a
 * test) shopify.app.toml's [webhooks] and the extension's toml. `@shopify/shopify-api` 13.1.0's
 * ApiVersion enum stops at July26; the library sends any version string as given.
 */
export const ADMIN_API_VERSION = "2026-10";
