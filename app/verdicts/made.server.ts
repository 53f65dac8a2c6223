import type { PrismaClient } from "@prisma/client";
import { knownStaffNames } from "../staff/identity.server";
import type { MadeIn } from "./made";
import { madeInWords } from "./words";

/** What a row keeps of where its refund was made (Operation's madeIn, madeByStaff, madeByApp) and the sentence it shows. */
export interface MadeColumns {
  madeIn: MadeIn | null;
  madeByStaff: string | null;
  madeByApp: string | null;
  /** "Made in Shopify admin by Dana Whitfield": the staff member by name once `withMakers` named them. */
  made: string;
}

/** The sentence of a row, with the staff member's name when known. */
export const madeSentence = (row: Omit<MadeColumns, "made">, names?: Map<string, string>): string =>
  madeInWords({
    made: row.madeIn,
    staff: row.madeByStaff !== null,
    staffName: row.madeByStaff ? (names?.get(row.madeByStaff) ?? null) : null,
    app: row.madeByApp,
  });

/**
 * Rows whose sentence names the staff member who made the refund as Shopify named them (one read of
 * the shop's online sessions for the whole page); "a staff member" for one Shopify never named.
 */
export async function withMakers<T extends MadeColumns>(db: PrismaClient, shop: string, rows: T[]): Promise<T[]> {
  const ids = rows.flatMap((row) => (row.madeByStaff ? [row.madeByStaff] : []));
  if (!ids.length) return rows;
  const names = await knownStaffNames(db, shop, ids);
  return rows.map((row) => ({ ...row, made: madeSentence(row, names) }));
}
