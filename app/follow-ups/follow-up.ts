import type { Prisma, PrismaClient } from "@prisma/client";
import { evaluate, type Evaluation } from "../contracts/evaluate";
import type { LoadedContract } from "../contracts/load";
import { contractByVersion } from "../contracts/registry.server";
import type { ShopifyGateway } from "../shopify/admin/gateway.server";
import type { Claimed } from "../work/claims.server";
import type { Helpers, Note, Outcomes, RowHelpers } from "../work/runner.server";

/**
 * A follow-up of a verified refund, declared once (decision 036): what happens to a refund after
 * Shopify recorded it as asked, judged by a contract of its own in a table of its own. The
 * declaration says what is particular to it (its contract, table, the shops it opens for, the row
 * it opens, how a shop's due rows are read and judged, what a pass asks of others); what every
 * follow-up does the same way is written once beside it: the opener (./open.server.ts: the shop's
 * cursor, a lease back, each row created once), the pass (./pass.server.ts: opening, then the
 * shop-by-shop judging through the job library), the contract a row is judged by and its timeout,
 * the evaluation and the verdict's columns (below). Alerts, the evidence page and the CSV read every
 * follow-up through the words each declares beside it (its view, its cells, its alert items).
 */

/** The tables whose rows follow a verified refund, each a queue of the job library (app/work/claims.server.ts). */
export type FollowUpQueue = "settlements" | "exposures";

/** The columns every follow-up's row has (a Settlement, an Exposure). */
export type FollowUpRow = Pick<Claimed<FollowUpQueue>, "id" | "shop" | "operationId" | "refundGid" | "contractId" | "contractVersion" | "startedAt" | "status">;

/** What a pass needs beyond the job library's helpers: Shopify, and how long a claim holds. */
export interface FollowUpOptions {
  gateway: ShopifyGateway;
  leaseMs?: number;
}

/** A verified refund as the opener reads it: its ids, when it was decided, and what the follow-up asked to read besides (`reads`). */
export interface VerifiedRefund {
  id: string;
  refundGid: string;
  orderGid: string;
  decidedAt: Date | null;
  [read: string]: unknown;
}

/** The columns the opener gives every row it opens: the shop, the refund, the contract it is judged by, and when it starts. */
export interface OpenedRow {
  shop: string;
  operationId: string;
  refundGid: string;
  contractId: string;
  contractVersion: string;
  contractHash: string;
  contractDeclaredHash: string;
  startedAt: Date;
}

export interface FollowUp<Q extends FollowUpQueue = FollowUpQueue> {
  /** Its name in the log. */
  name: string;
  queue: Q;
  /** The contract new rows are opened under; a row is judged by the version it was opened with. */
  contract: LoadedContract;
  /** The ShopState column holding how far the opener has read the shop's verified refunds. */
  cursor: "settlementsOpenedUntil" | "exposuresOpenedUntil";
  /** The Operation's relation to its row: a refund that has one is not opened again. */
  relation: "settlement" | "exposure";
  /** The shops the opener looks at a pass. */
  shops(db: PrismaClient): Promise<string[]>;
  /** Whether a shop's verified refunds are opened now (a shop Shopify does not let the app read yet waits); every shop when not given. */
  opensFor?(shop: string, helpers: Helpers, options: FollowUpOptions): Promise<boolean>;
  /** What the opener reads of each verified refund besides its ids and decision (stored JSON is parsed by `open`, at the door). */
  reads?: Prisma.OperationSelect;
  /** Creates the refund's row: the opener's columns and its own. The opener calls it once a refund, and a refund's second row is refused by the table. */
  open(db: PrismaClient, row: OpenedRow, refund: VerifiedRefund, now: Date): Promise<unknown>;
  /** How a shop's due rows are read and judged (the job library's shop-by-shop work). */
  judging: {
    /** Rows of one shop read at once. */
    batch: number;
    /** Shops a pass looks at. */
    maxShops: number;
    /** Shops judged side by side. */
    concurrency: number;
    judge(rows: Claimed<Q>[], helpers: RowHelpers<Q>, options: FollowUpOptions): Promise<Outcomes<Q>>;
  };
  /** What a pass's notes ask of others once its rows are written (exposure: refunds newly at risk go back on the review queue). */
  afterPass?(notes: Note[], db: PrismaClient): Promise<void>;
}

/** The contract a row is judged by: the version it was opened with (a version unknown to this build: the follow-up's own). */
export const contractOfRow = (followUp: Pick<FollowUp, "contract">, row: Pick<FollowUpRow, "contractId" | "contractVersion">): LoadedContract =>
  contractByVersion(row.contractId, row.contractVersion) ?? followUp.contract;

/** When a row stops being read: its contract's timeout after it started. */
export const timeoutOf = (followUp: Pick<FollowUp, "contract">, row: Pick<FollowUpRow, "contractId" | "contractVersion" | "startedAt">): number =>
  row.startedAt.getTime() + contractOfRow(followUp, row).contract.timing.timeout_ms;

/** A row judged by its contract from what this read observed: the refund's id is its input, when it started its $operation.created_at. */
export function evaluateRow(
  loaded: LoadedContract,
  row: Pick<FollowUpRow, "refundGid" | "startedAt">,
  observed: Record<string, unknown>,
  now: Date,
): Evaluation {
  return evaluate(loaded, {
    input: { refund_id: row.refundGid },
    action: { result: null },
    operation: { created_at: row.startedAt.toISOString() },
    observed,
    now: now.toISOString(),
  });
}

/** The verdict's columns, as every follow-up's row stores them: the engine's result whole, and its parts the screens filter by. */
export function verdictColumns(evaluation: Evaluation) {
  return {
    status: evaluation.verdict,
    reason: evaluation.reason,
    reasons: JSON.stringify(evaluation.reasons),
    classes: JSON.stringify(evaluation.classes),
    escalate: evaluation.escalate,
    result: JSON.stringify(evaluation),
  };
}

/** One column of the refunds CSV: its header, and its cell from the follow-up's row of the refund (none yet), the refund's verdict, and what the file read once. */
export type Cell<Row, File> = [header: string, value: (row: Row | undefined, refund: { status: string }, file: File & { now: Date }) => unknown];

/**
 * A follow-up's columns in the refunds CSV (app/exports/refunds-csv.server.ts): its rows of a page
 * of refunds (one query a slice), what its cells need of the shop (once a file), its columns for
 * scripts (the engine's names, new ones only ever at the end) and for people (words). Its status
 * is the latest judgement, not always a final verdict: the file says what the app knew when it was
 * downloaded.
 */
export interface FollowUpCells<Row extends { operationId: string } = { operationId: string }, File = unknown> {
  rows(db: PrismaClient, shop: string, operationIds: string[]): Promise<Row[]>;
  file?(db: PrismaClient, shop: string): Promise<File>;
  raw: Cell<Row, File>[];
  people: Cell<Row, File>[];
}
