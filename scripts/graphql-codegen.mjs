#!/usr/bin/env node
// `npm run graphql-codegen`: types every document in app/shopify/admin/ from the vendored schema,
// offline. The preset reads `admin-<version>.schema.json` beside its output when it exists, so
// the committed .json.gz is unpacked there (git-ignored) before graphql-codegen runs.
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";

const root = new URL("..", import.meta.url).pathname;
// Node 24 runs a TypeScript module of plain syntax as it is (type stripping).
const { ADMIN_API_VERSION: version } = await import("../app/shopify/api-version.ts");
const types = join(root, "app/shopify/admin/types");
writeFileSync(join(types, `admin-${version}.schema.json`), gunzipSync(readFileSync(join(root, `app/shopify/admin/schema/admin-${version}.schema.json.gz`))));
const result = spawnSync(join(root, "node_modules/.bin/graphql-codegen"), process.argv.slice(2), { cwd: root, stdio: "inherit" });
process.exit(result.status ?? 1);
