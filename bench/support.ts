import { execFileSync, fork, spawn } from "node:child_process";
import { createServer } from "node:net";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import type { PrismaClient } from "@prisma/client";
import pg from "pg";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TEST_APP } from "../test/support/credentials";
import type { AdminApiStats } from "../fake-shopify/admin-api";

export const root = new URL("..", import.meta.url).pathname;

export interface BenchRow {
  part: string;
  metric: string;
  app: number;
  baseline: number;
  unit: string;
  baselineName: string;
  /** app ÷ baseline, rounded; what the README quotes. null when the baseline rounds to 0. */
  ratio: number | null;
  note?: string;
}

export function row(part: string, metric: string, app: number, baseline: number, unit: string, baselineName: string, note?: string): BenchRow {
  return { part, metric, app: round(app), baseline: round(baseline), unit, baselineName, ratio: round(baseline) === 0 ? null : round(app / baseline, 3), note };
}

/** How many times a second `fn` runs on this core, for at least `minMs`. */
export function perSecond(fn: (i: number) => void, minMs: number): number {
  let runs = 0;
  const start = performance.now();
  while (performance.now() - start < minMs) {
    for (let i = 0; i < 1000; i++) fn(i);
    runs += 1000;
  }
  return runs / ((performance.now() - start) / 1000);
}

export function round(value: number, digits = 2): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}

export function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** The environment of the app's code (in this process or a child) on `databaseUrl`, talking to a fake Shopify at `adminOrigin`. */
export function fakeShopifyAppEnv(databaseUrl: string, adminOrigin: string): Record<string, string> {
  return {
    NODE_ENV: "production",
    DATABASE_URL: databaseUrl,
    SHOPIFY_API_KEY: TEST_APP.apiKey,
    SHOPIFY_API_SECRET: TEST_APP.secret,
    SESSION_SECRET_KEY: TEST_APP.sessionSecretKey,
    SHOPIFY_APP_URL: "http://127.0.0.1",
    SHOPIFY_ADMIN_API_ORIGIN: adminOrigin,
    VERIFIER_WORKER: "off",
  };
}

export function scratchSqlite(name: string): string {
  return `file:${join(mkdtempSync(join(tmpdir(), "rv-bench-")), `${name}.sqlite`)}`;
}

export function migrate(databaseUrl: string): void {
  execFileSync("node", ["scripts/db.mjs", "migrate"], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: databaseUrl, CHECKPOINT_DISABLE: "1" },
    stdio: ["ignore", "ignore", "inherit"],
  });
}

export interface LoadResult {
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  timeouts: number;
}

/** Offers signed deliveries from a separate process (autocannon), bounded in time. */
export function offerLoad(options: {
  url: string;
  secret: string;
  shop: string;
  seconds: number;
  connections: number;
  rate?: number;
  ackFile?: string;
}): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const child = spawn("node", ["bench/load-generator.mjs", JSON.stringify(options)], { cwd: root, stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (chunk) => (out += chunk));
    child.on("exit", (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`load generator exited ${code}`))));
  });
}

export async function startBareServer(port: number, secret: string) {
  const child = fork(join(root, "bench/bare-webhook-server.mjs"), [String(port), secret], { stdio: "ignore" });
  await new Promise((resolve) => child.once("message", resolve));
  return { url: `http://127.0.0.1:${port}/webhooks/refunds/create`, stop: () => new Promise((resolve) => (child.once("exit", resolve), child.kill())) };
}

let postgresClientGenerated = false;

/**
 * A scratch PostgreSQL database, migrated, and a Prisma client for it generated apart (bench/.generated/pg):
 * the client in node_modules is generated for the bench's SQLite parts.
 */
export async function postgresDatabase(serverUrl: string, name: string) {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = Object.assign(new URL(serverUrl), { pathname: `/${name}` }).toString();
  migrate(url);
  return {
    url,
    async prisma(): Promise<PrismaClient> {
      const dir = `${root}bench/.generated/pg`;
      if (!postgresClientGenerated) {
        postgresClientGenerated = true;
        mkdirSync(dir, { recursive: true });
        writeFileSync(
          `${dir}/schema.prisma`,
          readFileSync(`${root}prisma/postgres/schema.prisma`, "utf8").replace('engineType = "client"', 'engineType = "client"\n  output     = "./client"'),
        );
        execFileSync(`${root}node_modules/.bin/prisma`, ["generate", "--schema", `${dir}/schema.prisma`], {
          cwd: root,
          env: { ...process.env, DATABASE_URL: url, CHECKPOINT_DISABLE: "1" },
          stdio: "ignore",
        });
      }
      const { PrismaClient } = await import(`${dir}/client/index.js`);
      const { PrismaPg } = await import("@prisma/adapter-pg");
      return new PrismaClient({ adapter: new PrismaPg({ connectionString: url }) }) as PrismaClient;
    },
    async drop() {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

/** What the fake Shopify counted for one side of a part that compares Shopify's cost (parts 9 and 11). */
export type CountedStats = Pick<AdminApiStats, "graphqlRequests" | "requestedCost" | "actualCost" | "throttled" | "byOperation">;

/** The fake's counts now, to subtract later (its byOperation is kept and mutated by the fake). */
export const snapshotStats = (stats: AdminApiStats): CountedStats => ({ ...stats, byOperation: { ...stats.byOperation } });

/** What the fake counted since `before`: requests, points and throttled answers, and the operations sent. */
export function statsSince(before: CountedStats, after: AdminApiStats): CountedStats {
  const byOperation: Record<string, number> = {};
  for (const [name, n] of Object.entries(after.byOperation)) if (n - (before.byOperation[name] ?? 0)) byOperation[name] = n - (before.byOperation[name] ?? 0);
  return {
    graphqlRequests: after.graphqlRequests - before.graphqlRequests,
    requestedCost: after.requestedCost - before.requestedCost,
    actualCost: after.actualCost - before.actualCost,
    throttled: after.throttled - before.throttled,
    byOperation,
  };
}
