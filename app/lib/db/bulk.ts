import { Prisma, type PrismaClient } from "@prisma/client";
import { z } from "zod";
import { dialectOf } from "./dialect";
import { sqliteInstant } from "./client";

/**
 * Many rows in one statement, whatever their number: the worker's verdicts and the intake's
 * operations. Prisma's createMany and updateMany cost about 0.3 ms a row and 1.4 ms a statement
 * in its query compiler (measured, decision 024); here the rows travel as one parameter a column
 * (PostgreSQL: arrays read by `unnest`) or one JSON text (SQLite: `json_each`), so a thousand rows
 * cost what one does to plan.
 */
export type ColumnType = "text" | "int" | "bool" | "instant" | "bigint";
export type Columns<Row> = Record<string, { type: ColumnType; of: (row: Row) => unknown }>;

/** Columns named as the row's own fields, each with its type. */
export const columnsOf = <Row>(types: Record<string, ColumnType>): Columns<Row> =>
  Object.fromEntries(Object.entries(types).map(([name, type]) => [name, { type, of: (row: Row) => row[name as keyof Row] }]));

const PG_ARRAY: Record<ColumnType, string> = { text: "text[]", int: "integer[]", bool: "boolean[]", instant: "timestamp(3)[]", bigint: "bigint[]" };
const SQLITE_TYPE: Record<ColumnType, string> = { text: "TEXT", int: "INTEGER", bool: "INTEGER", instant: "TEXT", bigint: "INTEGER" };

const quoted = (name: string) => Prisma.raw(`"${name}"`);

/** A column's value as the database's parameter: instants as the text each database stores for Prisma. */
function valueFor(kind: "sqlite" | "postgresql", type: ColumnType, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (type === "instant") return kind === "postgresql" ? (value as Date).toISOString().replace("Z", "") : sqliteInstant(value as Date);
  if (type === "bigint") return kind === "postgresql" ? String(value) : Number(value);
  return value;
}

/** The rows as a table named `v` with the given columns, for a statement to read from. */
export function rowsTable<Row>(db: PrismaClient | Prisma.TransactionClient, columns: Columns<Row>, rows: Row[]): Prisma.Sql {
  const kind = dialectOf(db);
  const names = Object.keys(columns);
  if (kind === "postgresql") {
    const arrays = names.map((name) => {
      const { type, of } = columns[name];
      return Prisma.sql`${rows.map((row) => valueFor(kind, type, of(row)))}::${Prisma.raw(PG_ARRAY[type])}`;
    });
    return Prisma.sql`unnest(${Prisma.join(arrays)}) AS v(${Prisma.join(names.map(quoted))})`;
  }
  const json = JSON.stringify(rows.map((row) => names.map((name) => valueFor(kind, columns[name].type, columns[name].of(row)))));
  const picks = names.map(
    (name, i) => Prisma.sql`CAST(json_extract(value, ${`$[${i}]`}) AS ${Prisma.raw(SQLITE_TYPE[columns[name].type])}) AS ${quoted(name)}`,
  );
  return Prisma.sql`(SELECT ${Prisma.join(picks)} FROM json_each(${json})) AS v`;
}

/** Inserts the rows; `skipExisting` leaves out those a unique index already holds. Returns the `returning` column of the rows inserted. */
export async function insertRows<Row>(
  db: PrismaClient | Prisma.TransactionClient,
  table: string,
  columns: Columns<Row>,
  rows: Row[],
  options: { skipExisting?: boolean; returning?: string } = {},
): Promise<string[]> {
  if (!rows.length) return [];
  const names = Prisma.join(Object.keys(columns).map(quoted));
  // SQLite needs a WHERE before ON CONFLICT in INSERT … SELECT (its parser would read ON as a join).
  const statement = Prisma.sql`INSERT INTO ${quoted(table)} (${names}) SELECT ${names} FROM ${rowsTable(db, columns, rows)} WHERE true
    ${options.skipExisting ? Prisma.sql`ON CONFLICT DO NOTHING` : Prisma.empty}
    ${options.returning ? Prisma.sql`RETURNING ${quoted(options.returning)} AS "key"` : Prisma.empty}`;
  if (!options.returning) {
    await db.$executeRaw(statement);
    return [];
  }
  return keys.parse(await db.$queryRaw(statement)).map((row) => row.key);
}

const keys = z.array(z.object({ key: z.string() }));

/** A guarded update of many rows, declared once: the table, the rows' columns, the guard over `v` (the rows) and the columns it sets. */
export interface GuardedUpdate<Row> {
  table: string;
  columns: Columns<Row>;
  guard: Prisma.Sql;
  set: Record<string, Prisma.Sql>;
}

/**
 * Updates each row of `table` whose `id` and guard columns equal a row's (`guard`), setting the
 * `set` columns to that row's values: one statement for every row. Returns the ids it updated.
 * `set` values are SQL over `v` (the rows) and the table's own columns, so a column may keep its value.
 */
export async function updateRows<Row>(db: PrismaClient | Prisma.TransactionClient, update: GuardedUpdate<Row>, rows: Row[]): Promise<string[]> {
  const { table, columns, guard, set } = update;
  if (!rows.length) return [];
  const assignments = Prisma.join(Object.entries(set).map(([name, value]) => Prisma.sql`${quoted(name)} = ${value}`));
  const statement = Prisma.sql`UPDATE ${quoted(table)} SET ${assignments} FROM ${rowsTable(db, columns, rows)}
    WHERE ${quoted(table)}."id" = v."id" AND ${guard} RETURNING ${quoted(table)}."id" AS "key"`;
  return keys.parse(await db.$queryRaw(statement)).map((row) => row.key);
}
