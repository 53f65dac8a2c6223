import { PrismaClient } from "@prisma/client";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import { databaseKind, databaseUrl } from "./url";

/** A Prisma client for DATABASE_URL: SQLite for file:, PostgreSQL for postgresql://, through Prisma's driver adapters. */
export function createPrismaClient(url = databaseUrl()): PrismaClient {
  const adapter =
    databaseKind(url) === "postgresql" ? new PrismaPg({ connectionString: url }) : new PrismaBetterSQLite3({ url });
  return new PrismaClient({ adapter });
}
