#!/usr/bin/env node
// `npm run graphql-codegen`: types every document in app/shopify/admin/ from the vendored schema,
// offline. The preset reads `admin-<version>.schema.json` beside its output when it exists, so
// the committed .json.gz is unpacked there (git-ignored) before graphql-codegen runs.
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";

const root = new URL("..", import.meta.url).pathname;
const version = /ADMIN_API_VERSION = "(\d{4}-\d{2})"/.exec(readFileSync(join(root, "app/shopify/api-version.ts"), "utf8"))[1];
const types = join(root, "app/shopify/admin/types");
writeFileSync(join(types, `admin-${version}.schema.json`), gunzipSync(readFileSync(join(root, `app/shopify/admin/schema/admin-${version}.schema.json.gz`))));
const result = spawnSync(join(root, "node_modules/.bin/graphql-codegen"), process.argv.slice(2), { cwd: root, stdio: "inherit" });
process.exit(result.status ?? 1);
