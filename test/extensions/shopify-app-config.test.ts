import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "smol-toml";
import { describe, expect, it } from "vitest";
import { appConfigCopy, root, runShopify } from "../support/shopify-cli";

interface ExtensionToml {
  extensions: { type: string; handle: string; url?: string }[];
  settings?: { fields?: { type: string; key?: string }[] };
}
const app = parse(readFileSync(join(root, "shopify.app.toml"), "utf8")) as { application_url: string; build?: Record<string, unknown> };
const extensions = readdirSync(join(root, "extensions")).map((folder) => ({
  folder,
  config: parse(readFileSync(join(root, "extensions", folder, "shopify.extension.toml"), "utf8")) as unknown as ExtensionToml,
}));

describe("the app's configuration, as Shopify's CLI reads it", () => {
  it("has no [build] key the CLI no longer supports", () => {
    // `shopify app deploy` 4.8.2 deletes `include_config_on_deploy` from the file: "no longer supported, since all apps
    // must now include configuration on deploy". `shopify app config link` writes it again when it creates a new app.
    expect(Object.keys(app.build ?? {}).filter((key) => !["automatically_update_urls_on_dev", "dev_store_url"].includes(key))).toEqual([]);
  });

  it("is refused by `shopify app build` for what the CLI's own schema forbids: a Flow trigger key, a handle, a repeated handle", async () => {
    // The same loader passes the real files in shopify-app-build.test.ts; here it is shown to check these at all.
    const broken = (edit: (toml: string) => string) => {
      const copy = appConfigCopy();
      const file = join(copy, "extensions/flow-refund-failed/shopify.extension.toml");
      writeFileSync(file, edit(readFileSync(file, "utf8")));
      return runShopify(["app", "build", "--path", copy], copy);
    };
    const [key, handle, repeated] = await Promise.all([
      broken((toml) => toml.replace('key = "refund id"', 'key = "refund_id"')),
      broken((toml) => toml.replace('handle = "refund-failed-at-gateway"', 'handle = "Refund failed!"')),
      broken((toml) => toml.replace('handle = "refund-failed-at-gateway"', 'handle = "refund-contradicted"')),
    ]);
    expect(key.status).toBe(1);
    expect(key.words).toContain("String must contain only alphabetic characters and spaces");
    expect(handle.status).toBe(1);
    expect(handle.words).toContain("Handle can only contain alphanumeric characters and hyphens");
    expect(repeated.status).toBe(1);
    expect(repeated.words).toContain('Duplicated handle "refund-contradicted"');
  }, 180_000);

  it("gives every Flow trigger field a type Flow triggers take (the CLI checks types only when it deploys)", () => {
    // CLI 4.8.2's flow_trigger deploy config: commerce object references, and these field types (multi-line text and
    // integers are for Flow actions only).
    const references = ["customer_reference", "order_reference", "product_reference", "company_reference", "company_contact_reference"];
    const fields = ["boolean", "email", "single_line_text_field", "url", "number_decimal"];
    const triggers = extensions.filter(({ config }) => config.extensions[0].type === "flow_trigger");
    expect(triggers.map(({ folder }) => folder).sort()).toEqual([
      "flow-refund-contradicted",
      "flow-refund-failed",
      "flow-refund-on-disputed-order",
      "flow-refund-payout-failed",
      "flow-refund-unverifiable",
      "flow-refund-waiting-for-approval",
    ]);
    for (const { folder, config } of triggers) {
      for (const field of config.settings?.fields ?? []) {
        expect([...references, ...fields], `${folder}: ${field.key ?? field.type}`).toContain(field.type);
        expect(references.includes(field.type) || typeof field.key === "string", `${folder}: ${field.type} needs a key`).toBe(true);
      }
    }
  });

  it("sends Flow's lifecycle callback to the app: a relative URL resolved against application_url, over HTTPS, to a route the app has", () => {
    // The CLI 4.8.2 has no offline schema for flow_trigger_lifecycle_callback (Shopify serves it to a logged-in CLI);
    // its rule for Flow URLs: absolute HTTPS, or relative starting with a single slash, resolved against application_url.
    const callback = extensions.find(({ config }) => config.extensions[0].type === "flow_trigger_lifecycle_callback")!.config.extensions[0];
    expect(callback.url).toMatch(/^\/[^/]/);
    const resolved = new URL(callback.url!, app.application_url);
    expect(resolved.protocol).toBe("https:");
    expect(resolved.origin).toBe(new URL(app.application_url).origin);
    const route = `app/routes/${resolved.pathname.slice(1).replaceAll("/", ".")}.tsx`;
    expect(readFileSync(join(root, route), "utf8")).toContain("export const action");
  });
});
