import { defineConfig } from "prisma/config";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { databaseKind, databaseUrl } from "./app/lib/db/url";

/**
 * @prisma/adapter-pg 6.19 cannot map PostgreSQL's catalog types `name` (oid 19) and `"char"`
 * (oid 18), which the migrate commands read; report them as text (oid 25). Only the CLI needs
 * this: the app's runtime client never selects catalog columns.
 */
const CATALOG_TEXT_TYPES = new Set([18, 19]);
type FieldsResult = { fields?: { dataTypeID: number }[] };
function asText<T>(result: T): T {
  for (const part of Array.isArray(result) ? result : [result]) {
    for (const field of (part as FieldsResult)?.fields ?? []) {
      if (CATALOG_TEXT_TYPES.has(field.dataTypeID)) field.dataTypeID = 25;
    }
  }
  return result;
}
class CatalogSafeClient extends pg.Client {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  query(...args: any[]): any {
    const callback = args[args.length - 1];
    if (typeof callback === "function") {
      args[args.length - 1] = (error: Error | null, result: unknown) => callback(error, error ? result : asText(result));
    }
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const pending = (super.query as any)(...args);
    return pending && typeof pending.then === "function" ? pending.then(asText) : pending;
  }
}

// Prisma's CLI reads no .env when this file exists; DATABASE_URL comes from the environment.
const kind = databaseKind(databaseUrl());

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: kind === "postgresql" ? "prisma/postgres/schema.prisma" : "prisma/schema.prisma",
  migrations: { path: kind === "postgresql" ? "prisma/postgres/migrations" : "prisma/migrations" },
  async adapter() {
    const url = databaseUrl();
    if (kind === "sqlite") return new PrismaBetterSQLite3({ url });
    return new PrismaPg(new pg.Pool({ connectionString: url, Client: CatalogSafeClient }));
  },
});
