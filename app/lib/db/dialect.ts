import type { Prisma, PrismaClient } from "@prisma/client";
import { sqliteInstant } from "./client";
import type { DatabaseKind } from "./url";

/**
 * The database a client speaks to. The generated client is bound to one provider (npm run setup
 * generates it for DATABASE_URL); Prisma keeps its name on the client, with no public accessor.
 */
export function dialectOf(db: PrismaClient | Prisma.TransactionClient): DatabaseKind {
  const provider = (db as unknown as { _activeProvider?: string })._activeProvider;
  if (provider !== "sqlite" && provider !== "postgresql") throw new Error(`unexpected Prisma provider ${String(provider)}`);
  return provider;
}

/**
 * An instant as a raw statement's parameter, in the form the column holds it: PostgreSQL compares
 * timestamps; SQLite compares the text Prisma's adapter writes, so the parameter must be that text.
 */
export function instantParam(db: PrismaClient | Prisma.TransactionClient, at: Date): Date | string {
  return dialectOf(db) === "postgresql" ? at : sqliteInstant(at)!;
}
