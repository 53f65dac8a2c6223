#!/usr/bin/env node
// Vendors Shopify's published Admin API introspection schema for the app's API version.
// Shopify ships one per supported version inside its own npm package @shopify/dev-mcp; this
// script packs a pinned version of it from the npm registry and copies the one file out.
//   node scripts/vendor-shopify-schema.mjs            (the version in app/shopify/api-version.ts)
// Moving to the next API version: change ADMIN_API_VERSION, bump DEV_MCP_VERSION to a release
// that ships that version's schema, run this script, then `npm run graphql-codegen`.
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";

const DEV_MCP_VERSION = "1.16.0";
const root = new URL("..", import.meta.url).pathname;
// Node 24 runs a TypeScript module of plain syntax as it is (type stripping).
const { ADMIN_API_VERSION: version } = await import("../app/shopify/api-version.ts");

const work = mkdtempSync(join(tmpdir(), "dev-mcp-"));
try {
  execFileSync("npm", ["pack", `@shopify/dev-mcp@${DEV_MCP_VERSION}`, "--silent"], { cwd: work, stdio: ["ignore", "ignore", "inherit"] });
  const member = `package/dist/data/admin_${version}.json.gz`;
  execFileSync("tar", ["xzf", `shopify-dev-mcp-${DEV_MCP_VERSION}.tgz`, member], { cwd: work });
  const source = join(work, member);
  const introspection = JSON.parse(gunzipSync(readFileSync(source)).toString("utf8"));
  if (!introspection?.data?.__schema?.queryType) throw new Error(`${member} is not an introspection result`);
  const target = join(root, `app/shopify/admin/schema/admin-${version}.schema.json.gz`);
  copyFileSync(source, target);
  console.log(`vendored ${member} from @shopify/dev-mcp@${DEV_MCP_VERSION} → ${target.slice(root.length)} (${introspection.data.__schema.types.length} types)`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
