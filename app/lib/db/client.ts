import { PrismaClient } from "@prisma/client";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import { logger } from "../logging/logger.server";
import { config } from "../config/env.server";
import { databaseKind, databaseUrl } from "./url";

/** A Prisma client for DATABASE_URL: SQLite for file:, PostgreSQL for postgresql://, through Prisma's driver adapters. */
export function createPrismaClient(url = databaseUrl()): PrismaClient {
  const adapter =
    databaseKind(url) === "postgresql" ? new PrismaPg({ connectionString: url, max: config().DATABASE_POOL_MAX }) : new PrismaBetterSQLite3({ url });
  try {
    const client = new PrismaClient({ adapter });
    if (databaseKind(url) === "sqlite") tuneSqlite(client);
    return client;
  } catch (error) {
    // The generated client is tied to one provider: say how to get the one this URL needs.
    if (/is not compatible with the provider/.test((error as Error).message)) {
      throw new Error(`${(error as Error).message}\nRun \`npm run setup\` with this DATABASE_URL: it generates the Prisma client for ${databaseKind(url)}.`);
    }
    throw error;
  }
}

/**
 * SQLite's defaults fsync the whole journal on every write. WAL lets readers run beside the one
 * writer, and synchronous=NORMAL syncs at checkpoints instead: a committed write survives a crash
 * of the process (SIGKILL included), though not of the machine. busy_timeout makes a second
 * process (npm run worker beside the app) wait for the write lock instead of failing.
 */
export const SQLITE_PRAGMAS = ["journal_mode = WAL", "synchronous = NORMAL", "busy_timeout = 5000"];

/** As Prisma's SQLite adapter writes a DateTime, so Prisma reads rows written by another driver as it reads its own. */
export const sqliteInstant = (date: Date | null) => (date ? date.toISOString().replace("Z", "+00:00") : null);

function tuneSqlite(client: PrismaClient): void {
  for (const pragma of SQLITE_PRAGMAS.map((p) => `PRAGMA ${p}`)) {
    client.$queryRawUnsafe(pragma).catch((error: Error) => logger.error({ pragma, err: error }, "SQLite pragma failed"));
  }
}
