import { atRiskTwiceOf } from "../exposure/page.server";
import type { PrismaClient } from "@prisma/client";
import type { Contract } from "../contracts/schema";
import { markDue } from "../verification/operations.server";
import type { ShopifyGateway } from "../shopify/admin/gateway.server";
import { listRefunds, rowFilter, sortOf, toRow, type RefundRow } from "../verdicts/rows.server";
import { withMakers } from "../verdicts/made.server";
import { CLASSES, ORIGINS, parseFilters, type DashboardFilters } from "../verdicts/filters";
import { byMade, duplicateGroups, PAIR_CHANNELS, refundsNamed, type PairCandidate } from "./pairs";
import { UNCLAIMED } from "../work/claims.server";
import { readInSlices } from "../lib/db/slices";
import { staffNames } from "../staff/identity.server";
import { waitingRequests } from "../refunds/approval-page.server";
import { overLimitsOf } from "../guardrails/audit.server";

export type ReviewCode = "NOT_FOUND" | "INVALID_NOTE" | "CONFLICT";
/** Each code's HTTP status (app/lib/http/status.ts). */
export const REVIEW_STATUS: Readonly<Record<ReviewCode, number>> = { NOT_FOUND: 404, INVALID_NOTE: 422, CONFLICT: 409 };
export type ReviewOutcome =
  /** `resolved`: how many refunds this resolve resolved (both of a duplicate pair: 2). */
  | { ok: true; resolved?: number }
  | { ok: false; code: "NOT_FOUND" | "INVALID_NOTE"; message: string }
  /** A resolve that lost a race says who resolved it first, with their note. */
  | { ok: false; code: "CONFLICT"; message: string; resolvedBy?: string; resolvedNote?: string | null; resolvedAt?: string };

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

type GroupMember = PairCandidate & { revision: number; reviewState: string };

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

/**
 * The duplicate groups among resolved refunds that one resolve decided together (the same person,
 * instant and note): the Resolved tab shows each as the one item it was. Members resolved on their
 * own (before a pair was one item) stay items of their own.
 */
async function resolvedTogether(db: PrismaClient, shop: string): Promise<GroupMember[][]> {
  const groups = await duplicateGroupsIn(db, shop, ["resolved"]);
  if (!groups.length) return [];
  const found = await resolutions(
    db,
    shop,
    groups.flat().map((m) => m.id),
  );
  const together: GroupMember[][] = [];
  for (const group of groups) {
    const byResolve = Map.groupBy(group, (m) => {
      const r = found.get(m.id);
      return r ? `${r.actor}\n${r.at}\n${r.note ?? ""}` : m.id;
    });
    together.push(...[...byResolve.values()].filter((members) => members.length > 1));
  }
  return together;
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
export async function resolveReview(
  db: PrismaClient,
  shop: string,
  id: string,
  revision: number,
  note: string,
  actor: string,
  now: Date,
): Promise<ReviewOutcome> {
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
export async function requestRecheck(db: PrismaClient, shop: string, id: string, revision: number, actor: string, now: Date): Promise<ReviewOutcome> {
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

export const REVIEW_VIEWS = ["open", "history", "resolved"] as const;
export type ReviewView = (typeof REVIEW_VIEWS)[number];
/** One refund of a pair's item, in the words the queue shows it. */
export type PairRefund = Pick<RefundRow, "id" | "refundId" | "amountDisplay" | "currency" | "startedAt" | "status" | "reasonText" | "made">;
/**
 * An item of the queue: one refund, or the refunds of one duplicate pair (`pair`, earliest first;
 * the item is then its first refund, whose id and revision a resolve of the pair posts).
 */
export type ReviewItem = RefundRow & {
  resolution: Resolution | null;
  pair: PairRefund[] | null;
  /** The pair repeats an earlier refund that is not in it (a refund made three times: the first is verified). */
  pairRepeatsEarlier: boolean;
};

/** Refunds made since the app was installed; "backfill" is the shop's history, verified on install. */
const LIVE_ORIGINS = ORIGINS.filter((origin) => origin !== "backfill");

/** Which open items a view holds: what happens now first, the shop's past in its own tab. */
function viewFilter(view: ReviewView, filters: DashboardFilters): DashboardFilters {
  if (view === "resolved") return filters;
  const allowed: readonly string[] = view === "history" ? ["backfill"] : LIVE_ORIGINS;
  const chosen = filters.origins.length ? filters.origins.filter((origin) => allowed.includes(origin)) : [...allowed];
  // A chosen origin the view does not hold selects nothing, not everything.
  return { ...filters, origins: chosen.length ? chosen : ["none"] };
}

/** The list's order (its sort key, then the id, as listRefunds pages it), for rows read in slices. */
function inListOrder(key: "startedAt" | "amountMinor", descending: boolean) {
  type Listed = { id: string; startedAt: Date; amountMinor: bigint | null };
  const valueOf = (row: Listed): bigint => (key === "startedAt" ? BigInt(row.startedAt.getTime()) : (row.amountMinor ?? 0n));
  return (a: Listed, b: Listed): number => {
    const [x, y] = [valueOf(a), valueOf(b)];
    const order = x < y ? -1 : x > y ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
    return descending ? -order : order;
  };
}

/**
 * One page of the review queue: needs review (refunds since install), history (the shop's past,
 * verified on install) or resolved; newest first unless sorted otherwise, with the dashboard's
 * filters, sorts and keyset pages; resolved items carry who resolved them and their note.
 */
export async function reviewPage(
  db: PrismaClient,
  gateway: ShopifyGateway,
  contract: Contract,
  shop: string,
  params: URLSearchParams,
  now: Date,
  timeZone: string,
) {
  const view: ReviewView = REVIEW_VIEWS.find((v) => v === params.get("view")) ?? "open";
  const withState = new URLSearchParams(params);
  withState.set("review", view === "resolved" ? "resolved" : "open");
  const filters = parseFilters(withState, { now, timeZone });
  const selected = viewFilter(view, filters);
  const [page, total, open, history, resolved, groups, resolvedGroups] = await Promise.all([
    listRefunds(db, contract, shop, selected, gateway),
    db.operation.count({ where: rowFilter(shop, selected) }),
    db.operation.count({ where: { shop, reviewState: "open", origin: { in: LIVE_ORIGINS } } }),
    db.operation.count({ where: { shop, reviewState: "open", origin: "backfill" } }),
    db.operation.count({ where: { shop, reviewState: "resolved" } }),
    duplicateGroupsIn(db, shop, ["open"]),
    resolvedTogether(db, shop),
  ]);
  // A pair is one item: each list counts its groups once.
  const beyondFirst = (of: GroupMember[][]) => of.reduce((sum, g) => sum + g.length - 1, 0);
  const openIn = (list: string) => groups.filter((g) => g[0].list === list);
  const counts = {
    open: open - beyondFirst(openIn("live")),
    history: history - beyondFirst(openIn("history")),
    resolved: resolved - beyondFirst(resolvedGroups),
  };
  const inView = view === "resolved" ? resolvedGroups : openIn(view === "history" ? "history" : "live");
  const { key, descending } = sortOf(selected);
  // The refunds of the groups that the filters select, as the list sorts them: the first is where the group's item stands.
  const matching = (
    await readInSlices(
      inView.flat().map((m) => m.id),
      (slice) =>
        db.operation.findMany({
          where: { AND: [rowFilter(shop, selected), { id: { in: slice } }, ...(key === "amountMinor" ? [{ amountMinor: { not: null } }] : [])] },
          select: { id: true, startedAt: true, amountMinor: true },
        }),
    )
  ).sort(inListOrder(key, descending));
  const groupOf = new Map(inView.flatMap((g) => g.map((m) => [m.id, g] as const)));
  const standsAt = new Map<PairCandidate[], string>();
  for (const op of matching) {
    const group = groupOf.get(op.id)!;
    if (!standsAt.has(group)) standsAt.set(group, op.id);
  }
  const isMatching = new Set(matching.map((op) => op.id));
  const pairTotal = total - [...standsAt.keys()].reduce((sum, g) => sum + g.filter((m) => isMatching.has(m.id)).length - 1, 0);
  const onPage = inView.filter((g) => page.rows.some((row) => standsAt.get(g) === row.id));
  const memberOps = onPage.length ? await db.operation.findMany({ where: { shop, id: { in: onPage.flat().map((m) => m.id) } } }) : [];
  // Every pair's refunds on the page named in one read of the staff's names.
  const memberRows = new Map(
    (
      await withMakers(
        db,
        shop,
        memberOps.map((op) => toRow(contract, op)),
      )
    ).map((member) => [member.id, member]),
  );
  // A pair's refunds were resolved by one resolve: the row where its item stands carries it.
  const resolvedBy =
    view === "resolved"
      ? await resolutions(
          db,
          shop,
          page.rows.map((r) => r.id),
        )
      : new Map<string, Resolution>();
  const items: ReviewItem[] = [];
  for (const row of page.rows) {
    const group = inView.find((g) => g.some((m) => m.id === row.id));
    if (!group) {
      items.push({ ...row, resolution: resolvedBy.get(row.id) ?? null, pair: null, pairRepeatsEarlier: false });
      continue;
    }
    // The other refunds of a pair are in its item, wherever they fall in the list.
    if (standsAt.get(group) !== row.id) continue;
    const members = [...group].sort(byMade).map((m) => ({ ...memberRows.get(m.id)!, orderName: row.orderName }));
    const inGroup = new Set(group.map((m) => m.refundGid));
    items.push({
      ...members[0],
      resolution: resolvedBy.get(row.id) ?? null,
      pairRepeatsEarlier: group.some((m) => m.names.some((named) => !inGroup.has(named))),
      pair: members.map(({ id, refundId, amountDisplay, currency, startedAt, status, reasonText, made }) => ({
        id,
        refundId,
        amountDisplay,
        currency,
        startedAt,
        status,
        reasonText,
        made,
      })),
    });
  }
  // A verified refund on the queue is there because its money is at risk twice, or because it was made outside the app over a limit: it says why.
  const verified = items.filter((item) => item.status === "VERIFIED").map((item) => item.id);
  const [atRisk, overLimit] = await Promise.all([atRiskTwiceOf(db, shop, verified), overLimitsOf(db, shop, verified)]);
  const shown = items.map((item) => {
    const risk = atRisk.get(item.id);
    const over = overLimit.get(item.id);
    const riskText = risk ? (risk.atRisk ? `${risk.atRisk} at risk twice. ${risk.reasonText}` : risk.reasonText) : null;
    return {
      ...item,
      atRiskTwice: Boolean(risk),
      overLimit: Boolean(over),
      reasonText: [over?.sentence, riskText].filter(Boolean).join(" ") || item.reasonText,
    };
  });
  // Refunds over a limit waiting for an approver: above the list of what needs review, oldest (first to expire) first.
  const waiting = view === "open" ? await waitingRequests(db, shop, now) : [];
  return { view, items: shown, waiting, pageInfo: page.pageInfo, total: pairTotal, counts, filters, now: now.toISOString(), timeZone };
}
