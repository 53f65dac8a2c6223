import { copyFileSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execFileSync } from "node:child_process";
import pg from "pg";
import { randomBytes } from "node:crypto";
import { STORAGE_FILE } from "./test-sets";

/**
 * Tests run on SQLite unless TEST_DATABASE_URL names a PostgreSQL server. Migrations run once,
 * into a template (a file, or a template database); each test file gets its own copy.
 */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL || "";
export const onPostgres = /^postgres(ql)?:\/\//.test(TEST_DATABASE_URL);

const root = new URL("../..", import.meta.url).pathname;

/** SQLite test databases live in memory where the machine has a tmpfs: a copy per file, written to often, kept by no one. */
const SCRATCH = existsSync("/dev/shm") ? "/dev/shm" : tmpdir();

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

async function admin<T>(sql: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    return await sql(client);
  } finally {
    await client.end();
  }
}

export function templateName(runId: string): string {
  return `rv_template_${runId}`;
}

/** Builds the migrated template for this run; returns what the test files need to find it. */
export async function prepareTemplate(runId: string): Promise<string> {
  if (onPostgres) {
    const name = templateName(runId);
    await admin((c) => c.query(`CREATE DATABASE ${name}`));
    migrate(withDatabase(TEST_DATABASE_URL, name));
    return name;
  }
  const dir = mkdtempSync(join(SCRATCH, "rv-test-"));
  const file = join(dir, "template.sqlite");
  migrate(`file:${file}`);
  return file;
}

export async function dropTemplate(template: string): Promise<void> {
  if (onPostgres) await admin((c) => c.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`));
  else rmSync(join(template, ".."), { recursive: true, force: true });
}

function migrate(url: string) {
  execFileSync("node", ["scripts/db.mjs", "migrate"], { cwd: root, env: { ...process.env, DATABASE_URL: url }, stdio: ["ignore", "ignore", "pipe"] });
}

/** A fresh, migrated database for one test file; `drop` removes it. */
export async function createTestDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const template = process.env.RV_TEST_TEMPLATE;
  if (!template) throw new Error("RV_TEST_TEMPLATE is not set: run the tests through vitest (test/support/global-setup.ts)");
  // Imported here, not at the top: the bench imports this module's neighbours outside Vitest.
  const testFile = (await import("vitest")).expect.getState().testPath ?? "";
  if (!STORAGE_FILE.test(testFile)) {
    throw new Error(`${testFile.replace(root, "")} creates a database: name it *.e2e.test.ts, so that the PostgreSQL pass runs it too (decision 026)`);
  }
  if (onPostgres) {
    const name = `rv_test_${randomBytes(6).toString("hex")}`;
    await admin((c) => c.query(`CREATE DATABASE ${name} TEMPLATE ${template}`));
    return {
      url: withDatabase(TEST_DATABASE_URL, name),
      drop: () => admin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
    };
  }
  const dir = mkdtempSync(join(SCRATCH, "rv-db-"));
  const file = join(dir, "test.sqlite");
  copyFileSync(template, file);
  return { url: `file:${file}`, drop: async () => rmSync(dir, { recursive: true, force: true }) };
}
