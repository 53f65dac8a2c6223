import { PrismaClient } from "@prisma/client";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import { databaseKind, databaseUrl } from "./url";

/** A Prisma client for DATABASE_URL: SQLite for file:, PostgreSQL for postgresql://, through Prisma's driver adapters. */
export function createPrismaClient(url = databaseUrl()): PrismaClient {
  const adapter =
    databaseKind(url) === "postgresql" ? new PrismaPg({ connectionString: url }) : new PrismaBetterSQLite3({ url });
  try {
    return new PrismaClient({ adapter });
  } catch (error) {
    // The generated client is tied to one provider: say how to get the one this URL needs.
    if (/is not compatible with the provider/.test((error as Error).message)) {
      throw new Error(`${(error as Error).message}\nRun \`npm run setup\` with this DATABASE_URL: it generates the Prisma client for ${databaseKind(url)}.`);
    }
    throw error;
  }
}
