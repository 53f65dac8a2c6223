import type { PrismaClient } from "@prisma/client";
import { markDue } from "../verification/operations.server";
import { CLASSES } from "../verdicts/filters";
import { duplicateGroups, PAIR_CHANNELS, refundsNamed, type PairCandidate } from "./pairs";
import { UNCLAIMED } from "../work/claims.server";
import { readInSlices } from "../lib/db/slices";
import { staffNames } from "../staff/identity.server";

export type ReviewCode = "NOT_FOUND" | "INVALID_NOTE" | "CONFLICT";
/** Each code's HTTP status (app/lib/http/status.ts). */
export const REVIEW_STATUS: Readonly<Record<ReviewCode, number>> = { NOT_FOUND: 404, INVALID_NOTE: 422, CONFLICT: 409 };
export type ReviewOutcome =
  /** `resolved`: how many refunds this resolve resolved (both of a duplicate pair: 2). */
  | { ok: true; resolved?: number }
  | { ok: false; code: "NOT_FOUND" | "INVALID_NOTE"; message: string }
  /** A resolve that lost a race says who resolved it first, with their note. */
  | { ok: false; code: "CONFLICT"; message: string; resolvedBy?: string; resolvedNote?: string | null; resolvedAt?: string };

/** One person's decision on one refund of the shop, at the revision their page showed. */
export interface ReviewDecision {
  shop: string;
  id: string;
  revision: number;
  /** The staff member deciding (their Shopify user id). */
  actor: string;
}

export interface Resolution {
  note: string | null;
  actor: string;
  by: string;
  at: string;
}

/** The latest resolution of each of these refunds (ReviewEvent "resolved"), with the resolver's name. */
export async function resolutions(db: PrismaClient, shop: string, ids: string[]): Promise<Map<string, Resolution>> {
  if (!ids.length) return new Map();
  // A slice holds every event of its refunds, in order: the last one read of each is its latest.
  const events = await readInSlices(ids, (slice) =>
    db.reviewEvent.findMany({ where: { shop, operationId: { in: slice }, action: "resolved" }, orderBy: { createdAt: "asc" } }),
  );
  const names = await staffNames(
    db,
    shop,
    events.map((e) => e.actor),
  );
  const latest = new Map<string, Resolution>();
  for (const e of events) latest.set(e.operationId, { note: e.note, actor: e.actor, by: names.get(e.actor)!, at: e.createdAt.toISOString() });
  return latest;
}

/** Which list of the queue an item waits in: refunds since install, or the shop's history. */
const listOf = (origin: string) => (origin === "backfill" ? "history" : "live");

export type GroupMember = PairCandidate & { revision: number; reviewState: string };

/**
 * The duplicate groups (app/review/pairs.ts) among a shop's refunds in these review states, on
 * these orders (every order when none is given), each earliest first.
 */
export async function duplicateGroupsIn(db: PrismaClient, shop: string, states: string[], orderGids?: string[]): Promise<GroupMember[][]> {
  const scope = { shop, reviewState: { in: states }, ...(orderGids ? { orderGid: { in: orderGids } } : {}) };
  const select = { id: true, refundGid: true, orderGid: true, origin: true, startedAt: true, revision: true, reviewState: true } as const;
  const duplicates = await db.operation.findMany({ where: { ...scope, reasonRows: { some: { shop, class: CLASSES.duplicate } } }, select });
  if (!duplicates.length) return [];
  const duplicateIds = duplicates.map((d) => d.id);
  // A slice holds every observation of its refunds, newest first: the first read of each is its latest.
  const observations = await readInSlices(duplicateIds, (slice) =>
    db.observation.findMany({
      where: { operationId: { in: slice }, channel: { in: [...PAIR_CHANNELS] }, ok: true },
      orderBy: { observedAt: "desc" },
      select: { operationId: true, channel: true, data: true },
    }),
  );
  const names = new Map<string, string[]>();
  for (const o of observations) if (!names.has(o.operationId)) names.set(o.operationId, refundsNamed(o.channel, o.data));
  const named = [...new Set([...names.values()].flat())];
  const isDuplicate = new Set(duplicateIds);
  const others = (await readInSlices(named, (slice) => db.operation.findMany({ where: { ...scope, refundGid: { in: slice } }, select }))).filter(
    (op) => !isDuplicate.has(op.id),
  );
  const candidates = [...duplicates, ...others].map(({ origin, ...op }) => ({ ...op, list: listOf(origin), names: names.get(op.id) ?? [] }));
  return duplicateGroups(candidates) as GroupMember[][];
}

/** Takes one refund off the queue if it is still open at this revision: one guarded statement, so of two at once one takes it. */
async function takeOffQueue(db: PrismaClient, shop: string, id: string, revision: number): Promise<boolean> {
  const { count } = await db.operation.updateMany({
    where: { id, shop, revision, reviewState: "open" },
    data: { reviewState: "resolved", revision: { increment: 1 } },
  });
  return count === 1;
}

/**
 * The refunds one resolve of `op` decides: its duplicate group (the pair, or a refund made three
 * times), earliest first, with the members still open and those resolved by a resolve still under
 * way (taken, its audit rows not yet written). A member resolved before, on its own, is not the
 * group's any more. The first is the anchor: every resolve of the group, from the queue or from
 * either refund's evidence page, is decided by the one guarded update of the anchor.
 */
async function resolveGroupOf(db: PrismaClient, shop: string, op: { id: string; orderGid: string }): Promise<GroupMember[]> {
  const group = (await duplicateGroupsIn(db, shop, ["open", "resolved"], [op.orderGid])).find((g) => g.some((m) => m.id === op.id)) ?? [];
  const resolved = group.filter((m) => m.reviewState === "resolved").map((m) => m.id);
  const audited = new Set(
    (
      await readInSlices(resolved, (slice) =>
        db.reviewEvent.findMany({ where: { shop, operationId: { in: slice }, action: "resolved" }, select: { operationId: true } }),
      )
    ).map((e) => e.operationId),
  );
  return group.filter((m) => m.reviewState === "open" || !audited.has(m.id));
}

/** Who resolved it: the winner writes its audit rows just after its guarded updates, so give it a moment. */
async function winnerOf(db: PrismaClient, shop: string, ids: string[]): Promise<Resolution | undefined> {
  for (let i = 0; i < 10; i++) {
    const found = await resolutions(db, shop, ids);
    const winner = ids.map((id) => found.get(id)).find(Boolean);
    if (winner) return winner;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return undefined;
}

/**
 * Resolves an escalated refund with a note, and with it every refund of its duplicate group (the
 * two refunds of a pair are one review item). The form carries the revision it was shown; if the
 * record moved on since (another person resolved it, or its pair), nothing is overwritten: a
 * conflict that says who resolved it and with what note.
 */
export async function resolveReview(db: PrismaClient, resolve: ReviewDecision & { note: string }, now: Date): Promise<ReviewOutcome> {
  const { shop, id, revision, note, actor } = resolve;
  const text = note.trim();
  if (!text) return { ok: false, code: "INVALID_NOTE", message: "Write a note that says how this refund was resolved." };
  if (text.length > 2000) return { ok: false, code: "INVALID_NOTE", message: "The note is longer than 2,000 characters." };
  const op = await db.operation.findFirst({ where: { id, shop }, select: { id: true, orderGid: true, revision: true, reviewState: true } });
  if (!op) return { ok: false, code: "NOT_FOUND", message: "No such refund in this shop." };
  // Twice at most: a resolve that lost its group's anchor to a resolve of that refund alone (made
  // before the pair was one item) tries again with what is left open.
  for (let round = 0; round < 2; round++) {
    const group = await resolveGroupOf(db, shop, op);
    const anchor = group[0] ?? { id, revision };
    // The refund this person looked at must still be as they saw it; the anchor is taken at the revision it has now.
    const shownStill = anchor.id === id || (await db.operation.count({ where: { id, shop, revision, reviewState: "open" } })) === 1;
    // No transaction (see recordVerdicts): the anchor's guarded statement decides alone; the rest follow.
    if (shownStill && (await takeOffQueue(db, shop, anchor.id, anchor.id === id ? revision : anchor.revision))) {
      const taken = [anchor.id];
      for (const member of group.slice(1)) {
        if (member.reviewState === "open" && (await takeOffQueue(db, shop, member.id, member.id === id ? revision : member.revision))) taken.push(member.id);
      }
      // The audit rows come after every refund is taken: a loser that sees the anchor's row knows the winner took all it will.
      await db.reviewEvent.createMany({ data: taken.map((operationId) => ({ operationId, shop, action: "resolved", note: text, actor, createdAt: now })) });
      return { ok: true, resolved: taken.length };
    }
    const winner = await winnerOf(db, shop, anchor.id === id ? [id] : [id, anchor.id]);
    const stillOpen = anchor.id !== id && (await db.operation.count({ where: { id, shop, revision, reviewState: "open" } })) === 1;
    if (stillOpen && round === 0) continue;
    if (winner) {
      return {
        ok: false,
        code: "CONFLICT",
        message: `Someone else changed this refund since you opened it: ${winner.by} resolved it first. Your note was not saved.`,
        resolvedBy: winner.by,
        resolvedNote: winner.note,
        resolvedAt: winner.at,
      };
    }
    break;
  }
  return {
    ok: false,
    code: "CONFLICT",
    message: "Someone else changed this refund since you opened it (it may already be resolved). Reload to see its current state.",
  };
}

/**
 * Re-check now: a pending refund is read back on the worker's next pass. An UNVERIFIABLE one is
 * reopened (the timeout said only that no evidence came in time; evidence may have come since):
 * read again at once, and VERIFIED if it now holds, else UNVERIFIABLE again.
 */
export async function requestRecheck(db: PrismaClient, recheck: ReviewDecision, now: Date): Promise<ReviewOutcome> {
  const { shop, id, revision, actor } = recheck;
  const op = await db.operation.findFirst({ where: { id, shop }, select: { status: true } });
  if (!op) return { ok: false, code: "NOT_FOUND", message: "No such refund in this shop." };
  if (op.status === "UNVERIFIABLE") {
    // Reopening is a decision over the page the person saw: a refund resolved (or re-checked) since is not reopened
    // behind their back. A pending refund's re-check only reads it sooner, whatever its revision now.
    const { count } = await db.operation.updateMany({
      where: { id, shop, revision, status: "UNVERIFIABLE" },
      data: { status: "PENDING", nextDueAt: now, decidedAt: null, reviewState: "none", ...UNCLAIMED, revision: { increment: 1 } },
    });
    if (count !== 1) return { ok: false, code: "CONFLICT", message: "Someone else changed this refund since you opened it. Reload to see its current state." };
  } else if (op.status !== "PENDING") {
    return { ok: false, code: "CONFLICT", message: `This refund's verdict is final (${op.status}).` };
  }
  await markDue(db, { id, shop }, now);
  await db.reviewEvent.create({ data: { operationId: id, shop, action: "recheck", actor, createdAt: now } });
  return { ok: true };
}
