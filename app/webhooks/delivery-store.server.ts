import { randomUUID } from "node:crypto";
import Database from "better-sqlite3";
import pg from "pg";
import { databaseKind } from "../lib/db/url";
import { GroupCommit } from "../lib/db/group-commit";
import { SQLITE_PRAGMAS, sqliteInstant } from "../lib/db/client";

/** A refunds/create delivery as the intake keeps it; the worker opens the refund's operation from it. */
export interface RefundDelivery {
  shop: string;
  webhookId: string;
  eventId: string | null;
  topic: string;
  triggeredAt: Date | null;
  apiVersion: string;
  refundGid: string;
  orderGid: string;
  refundCreatedAt: Date;
  amount: string;
  currency: string | null;
  /** Who made it, when the payload says (absent: nobody said). */
  staffUserId?: string | null;
  /** The POS device that processed it, when the payload says one did. */
  posDeviceId?: string | null;
  receivedAt: Date;
}

export interface DeliveryStore {
  /** One statement, committed when it resolves. */
  store(deliveries: RefundDelivery[]): Promise<void>;
  close(): Promise<void>;
}

const COLUMN_NAMES = [
  "id",
  "shop",
  "webhookId",
  "eventId",
  "topic",
  "triggeredAt",
  "apiVersion",
  "refundGid",
  "orderGid",
  "refundCreatedAt",
  "receivedAt",
  "redeliveries",
  "amount",
  "currency",
  "staffUserId",
  "posDeviceId",
];
const COLUMNS = COLUMN_NAMES.map((name) => `"${name}"`).join(", ");
// Each row only if its shop has the app installed (an offline session): the check is inside the
// statement, so it holds in every process without a cache to invalidate, and a delivery for an
// uninstalled shop is stored nowhere. A redelivery only counts itself.
const INSTALLED = `EXISTS (SELECT 1 FROM "Session" WHERE "Session"."id" = 'offline_' || v."shop")`;
// One row per refund and topic (issue 42): a redelivery, Shopify's duplicate of an event, or a
// signed body replayed under fresh webhook ids only counts itself on the first row.
const ON_REDELIVERY = `ON CONFLICT ("shop", "topic", "refundGid") DO UPDATE SET "redeliveries" = "WebhookDelivery"."redeliveries" + excluded."redeliveries" + 1`;

/** Deliveries of the same refund and topic in one batch become one row that counts the repeats. */
function collapseRepeats(deliveries: RefundDelivery[]) {
  const byWebhook = new Map<string, { d: RefundDelivery; repeats: number }>();
  for (const d of deliveries) {
    const key = `${d.shop}\n${d.topic}\n${d.refundGid}`;
    const seen = byWebhook.get(key);
    if (seen) seen.repeats++;
    else byWebhook.set(key, { d, repeats: 0 });
  }
  return [...byWebhook.values()];
}

/** A row's values in COLUMN_NAMES' order, instants written as the database needs them. */
function rowValues({ d, repeats }: { d: RefundDelivery; repeats: number }, instant: (date: Date | null) => string | null) {
  return [
    randomUUID(),
    d.shop,
    d.webhookId,
    d.eventId,
    d.topic,
    instant(d.triggeredAt),
    d.apiVersion,
    d.refundGid,
    d.orderGid,
    instant(d.refundCreatedAt),
    instant(d.receivedAt),
    repeats,
    d.amount,
    d.currency,
    d.staffUserId ?? null,
    d.posDeviceId ?? null,
  ];
}

function sqliteStore(file: string): DeliveryStore {
  const sqlite = new Database(file);
  // Tuned as the app's Prisma connection is (WAL, synchronous=NORMAL, waiting for the write lock).
  for (const pragma of SQLITE_PRAGMAS) sqlite.pragma(pragma);
  const statements = new Map<number, Database.Statement>();
  const statementFor = (rows: number) => {
    let statement = statements.get(rows);
    if (!statement) {
      const values = Array.from({ length: rows }, () => `(${COLUMN_NAMES.map(() => "?").join(", ")})`).join(", ");
      // SQLite names a VALUES list's columns column1…; a CTE names them as the table does.
      statement = sqlite.prepare(
        `WITH v(${COLUMNS}) AS (VALUES ${values}) INSERT INTO "WebhookDelivery" (${COLUMNS}) SELECT * FROM v WHERE ${INSTALLED} ${ON_REDELIVERY}`,
      );
      statements.set(rows, statement);
    }
    return statement;
  };
  return {
    async store(deliveries) {
      const rows = collapseRepeats(deliveries);
      statementFor(rows.length).run(rows.flatMap((row) => rowValues(row, sqliteInstant)));
    },
    async close() {
      sqlite.close();
    },
  };
}

function postgresStore(url: string): DeliveryStore {
  // Bounded waits: a write that hangs (a network partition) fails its batch with a 503 instead of
  // holding every later delivery of the process.
  const pool = new pg.Pool({ connectionString: url, max: 4, connectionTimeoutMillis: 5_000, query_timeout: 10_000, keepAlive: true });
  // A connection the server closed (a restart) is dropped by the pool; the next statement opens another.
  pool.on("error", () => undefined);
  // One prepared statement for any batch: each column arrives as an array. Instants travel as
  // ISO text with Z and are stored as UTC wall time, as Prisma stores them in TIMESTAMP(3).
  const text = `INSERT INTO "WebhookDelivery" (${COLUMNS})
    SELECT v."id", v."shop", v."webhookId", v."eventId", v."topic", v."triggeredAt" AT TIME ZONE 'UTC', v."apiVersion", v."refundGid", v."orderGid",
      v."refundCreatedAt" AT TIME ZONE 'UTC', v."receivedAt" AT TIME ZONE 'UTC', v."redeliveries", v."amount", v."currency", v."staffUserId", v."posDeviceId"
    FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::timestamptz[], $7::text[], $8::text[], $9::text[], $10::timestamptz[], $11::timestamptz[], $12::int[], $13::text[], $14::text[], $15::text[], $16::text[])
      AS v(${COLUMNS})
    WHERE ${INSTALLED} ${ON_REDELIVERY}`;
  return {
    async store(deliveries) {
      const rows = collapseRepeats(deliveries);
      const table = rows.map((row) => rowValues(row, (date) => date?.toISOString() ?? null));
      await pool.query({ name: "store-refund-deliveries", text, values: COLUMN_NAMES.map((_, i) => table.map((values) => values[i])) });
    },
    close: () => pool.end(),
  };
}

/**
 * The intake's own connection, beside Prisma's: its one statement is prepared once and run by the
 * driver. Through Prisma the same statement cost about a millisecond of CPU each (its query
 * pipeline, and SQLite's adapter prepares every statement anew): a third of the intake's time.
 */
export function openDeliveryStore(url: string): DeliveryStore {
  return databaseKind(url) === "postgresql" ? postgresStore(url) : sqliteStore(url.replace(/^file:/, ""));
}

/** The process's writer: deliveries that arrive together share one statement and one commit. */
export function deliveryWriter(store: DeliveryStore): GroupCommit<RefundDelivery> {
  return new GroupCommit((batch) => store.store(batch));
}
