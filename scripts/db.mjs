#!/usr/bin/env node
// Database chores for both providers. DATABASE_URL picks the database: file:… is SQLite (the
// default, file:./prisma/dev.sqlite), postgresql://… is PostgreSQL.
//   node scripts/db.mjs setup                 generate the client for that provider if needed, then migrate deploy
//   node scripts/db.mjs generate              generate the client for that provider if needed
//   node scripts/db.mjs sync-schema           write prisma/postgres/schema.prisma from prisma/schema.prisma
//   node scripts/db.mjs new-migration NAME    add a migration for both providers, from HEAD's schema to the working one
//                                             (needs a PostgreSQL server: MIGRATION_POSTGRES_URL, default the local one)
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const root = new URL("..", import.meta.url).pathname;
const env = { ...process.env, CHECKPOINT_DISABLE: "1", PRISMA_HIDE_UPDATE_MESSAGE: "1" };
const url = process.env.DATABASE_URL || "file:./prisma/dev.sqlite";
const provider = /^postgres(ql)?:\/\//.test(url) ? "postgresql" : "sqlite";
const schemas = { sqlite: "prisma/schema.prisma", postgresql: "prisma/postgres/schema.prisma" };
const prismaBin = join(root, "node_modules/.bin/prisma");

function prisma(args, extraEnv = {}) {
  return execFileSync(prismaBin, args, { cwd: root, env: { ...env, ...extraEnv }, stdio: ["ignore", "pipe", "inherit"] }).toString();
}

function postgresSchemaText() {
  return readFileSync(join(root, schemas.sqlite), "utf8")
    .replace(/^\/\/ The SQLite schema.*\n(\/\/.*\n)*/m, "// GENERATED from prisma/schema.prisma by `node scripts/db.mjs sync-schema`: do not edit.\n")
    .replace('provider = "sqlite"', 'provider = "postgresql"')
    .replace('url      = "file:dev.sqlite"', 'url      = "postgresql://localhost/refund_verifier"');
}

function syncSchema() {
  writeFileSync(join(root, schemas.postgresql), postgresSchemaText());
}

/** The generated client is tied to one provider; regenerate only when it changes or the schema does. */
function generate() {
  const marker = join(root, "node_modules/.prisma/client/refund-verifier-provider");
  const schemaText = readFileSync(join(root, schemas[provider]), "utf8");
  const wanted = `${provider}:${createHash("sha256").update(schemaText).digest("hex")}`;
  if (existsSync(marker) && readFileSync(marker, "utf8") === wanted) return;
  prisma(["generate", "--schema", schemas[provider]], { DATABASE_URL: url });
  writeFileSync(marker, wanted);
}

function migrateDeploy() {
  prisma(["migrate", "deploy"], { DATABASE_URL: url });
}

function newMigration(name) {
  if (!/^[a-z0-9_]+$/.test(name ?? "")) throw new Error("usage: node scripts/db.mjs new-migration snake_case_name");
  syncSchema();
  const stamp = new Date().toISOString().replace(/\D/g, "").slice(0, 14);
  const scratch = mkdtempSync(join(tmpdir(), "rv-schema-"));
  for (const [kind, schema, dir] of [
    ["sqlite", schemas.sqlite, "prisma/migrations"],
    ["postgresql", schemas.postgresql, "prisma/postgres/migrations"],
  ]) {
    const before = join(scratch, `${kind}.prisma`);
    let headText;
    try {
      headText = execFileSync("git", ["show", `HEAD:${schema}`], { cwd: root }).toString();
    } catch {
      headText = null;
    }
    const from = headText === null ? ["--from-empty"] : (writeFileSync(before, headText), ["--from-schema-datamodel", before]);
    const sql = prisma(["migrate", "diff", ...from, "--to-schema-datamodel", schema, "--script"], {
      // Prisma's PostgreSQL diff connects through the adapter even between two schema files.
      DATABASE_URL: kind === "sqlite" ? "file:./prisma/dev.sqlite" : process.env.MIGRATION_POSTGRES_URL || "postgresql://postgres@127.0.0.1:5432/test",
    });
    const folder = join(root, dir, `${stamp}_${name}`);
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, "migration.sql"), sql);
    console.log(`wrote ${dir}/${stamp}_${name}/migration.sql`);
  }
}

const [command, arg] = process.argv.slice(2);
switch (command) {
  case "setup":
    generate();
    migrateDeploy();
    break;
  case "generate":
    generate();
    break;
  case "migrate":
    migrateDeploy();
    break;
  case "sync-schema":
    syncSchema();
    break;
  case "new-migration":
    newMigration(arg);
    break;
  default:
    console.error("usage: node scripts/db.mjs setup | generate | migrate | sync-schema | new-migration NAME");
    process.exit(2);
}
