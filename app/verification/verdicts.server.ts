import { randomUUID } from "node:crypto";
import { Prisma, type Evaluation as EvaluationRow, type Observation, type Operation, type PrismaClient } from "@prisma/client";
import { evaluate, type Evaluation } from "../contracts/evaluate";
import type { LoadedContract } from "../contracts/load";
import { nextCheckAt } from "../contracts/timing";
import { dialectOf } from "../lib/db/dialect";
import { columnsOf, insertRows, updateRows, type Columns } from "../lib/db/bulk";
import { backoffMs, UNCLAIMED_SQL } from "../work/claims.server";
import { z } from "zod";
import { parseStored } from "../lib/db/stored-json";
import { buildBindings } from "./bindings";
import type { Made } from "../verdicts/made";

/**
 * The one way a verdict is reached and written, live or from the history: `judge` evaluates an
 * operation against its contract from what was observed (pure), and `recordVerdicts` writes a
 * batch of judgements, each guarded by the revision its operation was claimed at, with the rows
 * that explain it (decision 024).
 */

export interface ObservationRecord {
  channel: string;
  observedAt: Date;
  ok: boolean;
  data?: unknown;
  error?: string;
  apiVersion?: string | null;
}

/** How the read-back of this evaluation counts. */
export interface ReadbackAccount {
  /**
   * counted: a read that used one of the contract's attempts; failed: an error (no attempt, a
   * back-off); not_evidence: Shopify did not show the refund yet inside the stale read window (no
   * attempt, no back-off: read again at `dueAt`).
   */
  kind: "counted" | "failed" | "not_evidence";
  retryAfterMs: number;
  /** Overrides the schedule: the end of the stale read window for a provisional verdict or a read not yet evidence. */
  dueAt?: Date;
  /** The verdict the evidence points to before the stale read window has passed (recorded as PENDING). */
  provisional?: string | null;
  orderName?: string;
  shopMoney?: { amount: string; currencyCode: string };
  /** Where the refund was made, when this read says it (decision 031); absent keeps what the row holds. */
  made?: Made;
}

/** Versions among those that served the observations which the contract does not list, joined with what was already flagged. */
function versionsOutside(contract: LoadedContract, observations: ObservationRecord[], already: string | null): string | null {
  const allowed = new Set(contract.contract.provider_api_versions);
  const outside = new Set(already ? already.split(", ") : []);
  for (const o of observations) for (const version of o.apiVersion?.split(", ") ?? []) if (!allowed.has(version)) outside.add(version);
  return outside.size ? [...outside].sort().join(", ") : null;
}

/** The contradictions and rules that held, as rows: what the dashboard's filters and the retry guard ask for. */
function reasonRows(contract: LoadedContract, operation: Operation, result: Evaluation) {
  const classes = new Map(contract.contract.contradicted_when.map((c) => [c.id, c.class]));
  return result.conditions
    .filter((c) => c.status === "holds" && (c.group === "contradicted" || c.group === "rule"))
    .map((c) => ({
      operationId: operation.id,
      shop: operation.shop,
      reason: c.id,
      kind: c.group === "rule" ? "rule" : "contradiction",
      class: classes.get(c.id) ?? null,
    }));
}

/** One evaluation to record: the operation as claimed, what was observed, the engine's result, how the read counts. */
export interface EvaluationToRecord {
  contract: LoadedContract;
  claimed: Operation;
  observations: ObservationRecord[];
  result: Evaluation;
  readback: ReadbackAccount;
}

/** What an operation is judged from: its contract, what was observed (by channel) and how, and how the read counts. */
export interface Observed {
  contract: LoadedContract;
  operation: Operation;
  /** The contract's observed channels, as the bindings read them. */
  observed: Record<string, unknown>;
  /** The same, as the rows that explain the verdict. */
  observations: ObservationRecord[];
  readback: Omit<ReadbackAccount, "provisional">;
  /** The contract's stale read window, for a live read: nothing is final before it has passed. */
  window?: { open: boolean; end: Date };
}

/**
 * Judges one operation against its contract (pure). Inside the stale read window a verdict is
 * provisional: recorded as PENDING, read once more at the window's end (a read inside it may be
 * stale, and another refund on the order may still show up).
 */
export function judgeOperation(what: Observed, now: Date): EvaluationToRecord {
  const { contract, operation } = what;
  const facts = { ...operation, actionResult: operation.actionResult ? parseStored(z.unknown(), operation.actionResult, "Operation.actionResult") : null };
  const evaluation = evaluate(contract, buildBindings(contract, facts, what.observed, now));
  const provisional = what.window?.open && evaluation.verdict !== "PENDING" && evaluation.verdict !== "UNVERIFIABLE" ? evaluation.verdict : null;
  return {
    contract,
    claimed: operation,
    observations: what.observations,
    result: provisional ? { ...evaluation, verdict: "PENDING" as const, escalate: false } : evaluation,
    readback: { ...what.readback, dueAt: provisional ? what.window!.end : what.readback.dueAt, provisional },
  };
}

/** When the operation is looked at next: never once final, else by the contract's schedule, the read's own date, or a back-off. */
function nextLook(e: EvaluationToRecord, attempts: number, readFailures: number, now: Date): Date | null {
  const timing = e.contract.contract.timing;
  if (e.result.verdict !== "PENDING") return null;
  if (e.readback.dueAt) return new Date(Math.max(e.readback.dueAt.getTime(), now.getTime()));
  if (e.readback.kind === "counted") return new Date(Math.max(nextCheckAt(timing, e.claimed.startedAt.getTime(), attempts).atMs, now.getTime()));
  // A failed read is no attempt: it backs off (the claims' back-off, or what Shopify asked); before
  // the timeout, never past it.
  const timeoutAt = e.claimed.startedAt.getTime() + timing.timeout_ms;
  const retryAt = now.getTime() + backoffMs("operations", readFailures, e.readback.retryAfterMs);
  return new Date(now.getTime() < timeoutAt ? Math.min(retryAt, timeoutAt) : retryAt);
}

/** The operation's row after the evaluation: its verdict (or PENDING and the next look), the revision it must still be at. */
function evaluatedRow(e: EvaluationToRecord, now: Date) {
  const { claimed, result, readback } = e;
  const final = result.verdict !== "PENDING";
  const attempts = claimed.attempts + (readback.kind === "counted" ? 1 : 0);
  const readFailures = readback.kind === "failed" ? claimed.readFailures + 1 : 0;
  return {
    id: claimed.id,
    expectedRevision: claimed.revision,
    status: result.verdict,
    reason: result.reason,
    reasons: JSON.stringify(result.reasons),
    classes: JSON.stringify(result.classes),
    escalate: result.escalate,
    attempts,
    readFailures,
    nextDueAt: nextLook(e, attempts, readFailures, now),
    provisionalVerdict: final ? null : (readback.provisional ?? null),
    apiVersionsOutside: versionsOutside(e.contract, e.observations, claimed.apiVersionsOutside),
    // Null keeps what the row holds: a verdict not final leaves decidedAt and the review alone.
    decidedAt: final ? now : null,
    reviewState: final ? (result.escalate ? "open" : "none") : null,
    orderName: readback.orderName ?? null,
    shopAmount: readback.shopMoney?.amount ?? null,
    shopCurrency: readback.shopMoney?.currencyCode ?? null,
    madeIn: readback.made?.in ?? null,
    madeByStaff: readback.made?.staffUserId ?? null,
    madeByApp: readback.made?.app ?? null,
    updatedAt: now,
  };
}

type EvaluatedRow = ReturnType<typeof evaluatedRow>;
const text = <K extends keyof EvaluatedRow>(key: K) => ({ type: "text" as const, of: (row: EvaluatedRow) => row[key] });
const EVALUATED: Columns<EvaluatedRow> = {
  id: text("id"),
  expectedRevision: { type: "int", of: (r) => r.expectedRevision },
  status: text("status"),
  reason: text("reason"),
  reasons: text("reasons"),
  classes: text("classes"),
  escalate: { type: "bool", of: (r) => r.escalate },
  attempts: { type: "int", of: (r) => r.attempts },
  readFailures: { type: "int", of: (r) => r.readFailures },
  nextDueAt: { type: "instant", of: (r) => r.nextDueAt },
  provisionalVerdict: text("provisionalVerdict"),
  apiVersionsOutside: text("apiVersionsOutside"),
  decidedAt: { type: "instant", of: (r) => r.decidedAt },
  reviewState: text("reviewState"),
  orderName: text("orderName"),
  shopAmount: text("shopAmount"),
  shopCurrency: text("shopCurrency"),
  madeIn: text("madeIn"),
  madeByStaff: text("madeByStaff"),
  madeByApp: text("madeByApp"),
  updatedAt: { type: "instant", of: (r) => r.updatedAt },
};
const op = (column: string) => Prisma.raw(`"Operation"."${column}"`);
const v = (column: string) => Prisma.raw(`v."${column}"`);
const fromRow = (...columns: string[]) => Object.fromEntries(columns.map((c) => [c, v(c)]));
const unlessNull = (...columns: string[]) => Object.fromEntries(columns.map((c) => [c, Prisma.sql`COALESCE(${v(c)}, ${op(c)})`]));
/** What a verdict's update sets: the row's values, the claim let go, the revision moved on. */
const VERDICT_SET = {
  ...fromRow(
    "status",
    "reason",
    "reasons",
    "classes",
    "escalate",
    "attempts",
    "readFailures",
    "nextDueAt",
    "provisionalVerdict",
    "apiVersionsOutside",
    "updatedAt",
  ),
  ...unlessNull("decidedAt", "reviewState", "orderName", "shopAmount", "shopCurrency", "madeIn", "madeByStaff", "madeByApp"),
  ...UNCLAIMED_SQL,
  revision: Prisma.sql`${op("revision")} + 1`,
};
/** Only an operation still at the revision it was claimed at, and still pending, takes its verdict. */
const VERDICT_GUARD = Prisma.sql`${op("revision")} = ${v("expectedRevision")} AND ${op("status")} = 'PENDING'`;

/**
 * Writes evaluations: each operation's new state, checked against the revision it was claimed at,
 * then the rows that explain it. An operation anything else touched meanwhile (new evidence, a
 * re-check, another worker after the lease ran out) gets nothing written. Returns the ids written.
 *
 * Four statements whatever the batch's size: the guarded updates in one, then reasons,
 * observations and evaluations. On PostgreSQL they are one transaction, one commit: all or
 * nothing. On SQLite (decision 005: no transactions on the shared connection) the guarded update
 * decides alone and the evidence follows; a crash in between leaves verdicts without their rows,
 * never a verdict twice (decision 024).
 */
export async function recordVerdicts(db: PrismaClient, evaluations: EvaluationToRecord[], now: Date): Promise<Set<string>> {
  if (!evaluations.length) return new Set();
  const rows = evaluations.map((e) => evaluatedRow(e, now));
  const write = async (tx: PrismaClient | Prisma.TransactionClient) => {
    const written = new Set(await updateRows(tx, { table: "Operation", columns: EVALUATED, guard: VERDICT_GUARD, set: VERDICT_SET }, rows));
    const evidence = evaluations
      .map((e, i) => ({ ...e, operation: { ...e.claimed, revision: e.claimed.revision + 1 }, evaluatedAt: now, attempt: rows[i].attempts }))
      .filter((e) => written.has(e.operation.id));
    await writeEvidenceRows(tx, evidenceRows(evidence));
    return written;
  };
  return dialectOf(db) === "postgresql" ? db.$transaction(write, { timeout: 60_000, maxWait: 10_000 }) : write(db);
}

export interface EvidenceToWrite {
  contract: LoadedContract;
  /** The row as the verdict left it: its revision names the evaluation. */
  operation: Operation;
  observations: ObservationRecord[];
  result: Evaluation;
  evaluatedAt: Date;
  attempt: number;
}

/** The rows that explain a batch of evaluations: the reasons of final verdicts, the observations, the evaluations. */
function evidenceRows(batch: EvidenceToWrite[]) {
  const finals = batch.filter((b) => b.result.verdict !== "PENDING");
  const observations = batch.map((b) =>
    b.observations.map((observation) => ({
      id: randomUUID(),
      operationId: b.operation.id,
      channel: observation.channel,
      observedAt: observation.observedAt,
      ok: observation.ok,
      data: observation.ok ? JSON.stringify(observation.data) : null,
      error: observation.error ?? null,
      apiVersion: observation.apiVersion ?? null,
    })),
  );
  return {
    decided: finals.map((b) => b.operation.id),
    reasons: finals.flatMap((b) => reasonRows(b.contract, b.operation, b.result)).map((row) => ({ id: randomUUID(), ...row })),
    observations: observations.flat(),
    // The evaluation's id is the operation's revision it recorded.
    evaluations: batch.map((b, i) => ({
      id: `${b.operation.id}:${b.operation.revision}`,
      operationId: b.operation.id,
      evaluatedAt: b.evaluatedAt,
      attempt: b.attempt,
      verdict: b.result.verdict,
      result: JSON.stringify(b.result),
      observationIds: JSON.stringify(observations[i].map((o) => o.id)),
    })),
  };
}

type EvidenceRows = ReturnType<typeof evidenceRows>;
const REASON_COLUMNS = columnsOf<EvidenceRows["reasons"][number]>({
  id: "text",
  operationId: "text",
  shop: "text",
  reason: "text",
  kind: "text",
  class: "text",
});
/** The columns of an observation and of an evaluation as the batched inserts write them (the bench writes the same). */
export const OBSERVATION_COLUMNS = columnsOf<Observation>({
  id: "text",
  operationId: "text",
  channel: "text",
  observedAt: "instant",
  ok: "bool",
  data: "text",
  error: "text",
  apiVersion: "text",
});
export const EVALUATION_COLUMNS = columnsOf<EvaluationRow>({
  id: "text",
  operationId: "text",
  evaluatedAt: "instant",
  attempt: "int",
  verdict: "text",
  result: "text",
  observationIds: "text",
});

/**
 * Writes a batch's evidence in at most four statements, whatever its size. An evaluation whose id
 * (operation and revision) is taken already is left out; returns the ids of those written.
 */
async function writeEvidenceRows(db: PrismaClient | Prisma.TransactionClient, rows: EvidenceRows): Promise<Set<string>> {
  if (rows.decided.length) await db.operationReason.deleteMany({ where: { operationId: { in: rows.decided } } });
  await insertRows(db, "OperationReason", REASON_COLUMNS, rows.reasons);
  await insertRows(db, "Observation", OBSERVATION_COLUMNS, rows.observations);
  return new Set(await insertRows(db, "Evaluation", EVALUATION_COLUMNS, rows.evaluations, { skipExisting: true, returning: "id" }));
}

/**
 * The rows that explain a verdict written before them by someone else: the history backfill
 * repairing a verdict whose writer died before its rows. A second writer of the same verdict (a
 * worker that lost its backfill's lease) finds the evaluation taken and takes back its copy of the
 * observations, so a verdict has one evaluation.
 */
export async function writeEvidence(db: PrismaClient, evidence: EvidenceToWrite): Promise<void> {
  const rows = evidenceRows([evidence]);
  const written = await writeEvidenceRows(db, rows);
  if (!written.size) await db.observation.deleteMany({ where: { id: { in: rows.observations.map((o) => o.id) } } });
}
