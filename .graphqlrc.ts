import { ApiType, shopifyApiProject } from "@shopify/api-codegen-preset";
import { ADMIN_API_VERSION } from "./app/shopify/api-version";

// Shopify's template points the preset at Shopify's schema proxy, which needs the internet. The
// preset uses a local `admin-<version>.schema.json` in its output folder when one exists:
// `npm run graphql-codegen` unpacks the vendored schema there first (scripts/graphql-codegen.mjs).
export default {
  projects: {
    default: shopifyApiProject({
      apiType: ApiType.Admin,
      apiVersion: ADMIN_API_VERSION,
      documents: ["./app/shopify/admin/**/*.ts", "!./app/shopify/admin/types/**"],
      outputDir: "./app/shopify/admin/types",
    }),
  },
};
