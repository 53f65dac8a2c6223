/**
 * A list that grows with a shop (a compliance request's orders, a shop's duplicates) never goes
 * into one statement whole: Prisma binds each value of an `in` list as one parameter, and refuses a
 * statement past the database's limit ("The query parameter limit supported by your database is
 * exceeded": 999 on SQLite). It splits a read whose only condition is one list by itself (1,200
 * shops passed), not one that also names the shop or a second list: a compliance request naming
 * 1,000 orders, and a review queue with 1,000 open duplicates, answered 500 on every try (issue
 * 42). Every such list goes through these, in slices far below the limit whatever else the
 * statement binds, one statement after another. Lists bounded by a batch (a claim's 250 rows, a
 * page of 100) need none.
 */
export const SLICE_SIZE = 500;

/** The values in slices of at most `size`, in order. */
export function slices<T>(values: readonly T[], size = SLICE_SIZE): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < values.length; start += size) out.push(values.slice(start, start + size));
  return out;
}

/** The rows `read` finds for each slice of `values`, joined in the slices' order (none read for an empty list). */
export async function readInSlices<T, R>(values: readonly T[], read: (slice: T[]) => Promise<R[]>): Promise<R[]> {
  const rows: R[] = [];
  for (const slice of slices(values)) rows.push(...(await read(slice)));
  return rows;
}

/** `write` (an updateMany or deleteMany) for each slice of `values`; the rows written in all. */
export async function writeInSlices<T>(values: readonly T[], write: (slice: T[]) => Promise<{ count: number }>): Promise<number> {
  let count = 0;
  for (const slice of slices(values)) count += (await write(slice)).count;
  return count;
}
