import type { PrismaClient } from "@prisma/client";
import type { Contract } from "../contracts/schema";
import { markDue } from "../verification/operations.server";
import type { ShopifyGateway } from "../shopify/admin/gateway.server";
import { listRefunds, rowFilter, toRow, type RefundRow } from "../verdicts/rows.server";
import { ORIGINS, parseFilters, type DashboardFilters } from "../verdicts/filters";

export type ReviewCode = "NOT_FOUND" | "INVALID_NOTE" | "CONFLICT";
export type ReviewOutcome =
  | { ok: true }
  | { ok: false; code: "NOT_FOUND" | "INVALID_NOTE"; message: string }
  /** A resolve that lost a race says who resolved it first, with their note. */
  | { ok: false; code: "CONFLICT"; message: string; resolvedBy?: string; resolvedNote?: string | null; resolvedAt?: string };

/** The digits of a staff member's id: a session token's subject is "42" or "gid://shopify/User/42". */
const userIdOf = (actor: string) => /(\d+)$/.exec(actor)?.[1];

/**
 * People's names for actors (session-token subjects), where the app has one: an online session of
 * that user in this shop carries Shopify's first and last name. Else "Staff member 42".
 */
export async function staffNames(db: PrismaClient, shop: string, actors: string[]): Promise<Map<string, string>> {
  const ids = [...new Set(actors.map(userIdOf).filter((id): id is string => Boolean(id)))];
  const sessions = ids.length
    ? await db.session.findMany({ where: { shop, userId: { in: ids.map((id) => BigInt(id)) } }, select: { userId: true, firstName: true, lastName: true } })
    : [];
  const byId = new Map<string, string>();
  for (const s of sessions) {
    const name = [s.firstName, s.lastName].filter(Boolean).join(" ").trim();
    if (name && s.userId !== null) byId.set(String(s.userId), name);
  }
  return new Map(actors.map((actor) => [actor, byId.get(userIdOf(actor) ?? "") ?? `Staff member ${userIdOf(actor) ?? actor}`]));
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
  const events = await db.reviewEvent.findMany({ where: { shop, operationId: { in: ids }, action: "resolved" }, orderBy: { createdAt: "asc" } });
  const names = await staffNames(
    db,
    shop,
    events.map((e) => e.actor),
  );
  const latest = new Map<string, Resolution>();
  for (const e of events) latest.set(e.operationId, { note: e.note, actor: e.actor, by: names.get(e.actor)!, at: e.createdAt.toISOString() });
  return latest;
}

/**
 * Resolves an escalated refund with a note. The form carries the revision it was shown; if the
 * record moved on since (another person resolved it), nothing is overwritten: a conflict that
 * says who resolved it and with what note.
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
  const op = await db.operation.findFirst({ where: { id, shop }, select: { reviewState: true } });
  if (!op) return { ok: false, code: "NOT_FOUND", message: "No such refund in this shop." };
  // One guarded statement decides (no transaction: see recordEvaluation); the audit row follows.
  const { count } = await db.operation.updateMany({
    where: { id, shop, revision, reviewState: "open" },
    data: { reviewState: "resolved", revision: { increment: 1 } },
  });
  if (count !== 1) {
    // The winner writes its audit row just after its guarded update: give it a moment.
    let winner: Resolution | undefined;
    for (let i = 0; i < 10 && !winner; i++) {
      winner = (await resolutions(db, shop, [id])).get(id);
      if (!winner) await new Promise((resolve) => setTimeout(resolve, 50));
    }
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
    return {
      ok: false,
      code: "CONFLICT",
      message: "Someone else changed this refund since you opened it (it may already be resolved). Reload to see its current state.",
    };
  }
  await db.reviewEvent.create({ data: { operationId: id, shop, action: "resolved", note: text, actor, createdAt: now } });
  return { ok: true };
}

/**
 * Re-check now: a pending refund is read back on the worker's next pass. An UNVERIFIABLE one is
 * reopened (the timeout said only that no evidence came in time; evidence may have come since):
 * read again at once, and VERIFIED if it now holds, else UNVERIFIABLE again.
 */
export async function requestRecheck(db: PrismaClient, shop: string, id: string, actor: string, now: Date): Promise<ReviewOutcome> {
  const op = await db.operation.findFirst({ where: { id, shop }, select: { status: true, revision: true } });
  if (!op) return { ok: false, code: "NOT_FOUND", message: "No such refund in this shop." };
  if (op.status === "UNVERIFIABLE") {
    const { count } = await db.operation.updateMany({
      where: { id, shop, revision: op.revision, status: "UNVERIFIABLE" },
      data: { status: "PENDING", nextDueAt: now, decidedAt: null, reviewState: "none", claimedBy: null, claimedUntil: null, revision: { increment: 1 } },
    });
    if (count !== 1) return { ok: false, code: "CONFLICT", message: "Someone else changed this refund since you opened it. Reload to see its current state." };
  } else if (op.status !== "PENDING") {
    return { ok: false, code: "CONFLICT", message: `This refund's verdict is final (${op.status}).` };
  }
  await markDue(db, { id, shop }, now);
  await db.reviewEvent.create({ data: { operationId: id, shop, action: "recheck", actor, createdAt: now } });
  return { ok: true };
}

/** Escalated refunds nobody has resolved yet, oldest decision first. */
export async function reviewQueue(db: PrismaClient, contract: Contract, shop: string) {
  const ops = await db.operation.findMany({
    where: { shop, reviewState: "open" },
    orderBy: [{ decidedAt: "asc" }, { startedAt: "asc" }, { id: "asc" }],
    take: 200,
  });
  return ops.map((op) => ({ ...toRow(contract, op), revision: op.revision, decidedAt: op.decidedAt?.toISOString() ?? null }));
}

export const REVIEW_VIEWS = ["open", "history", "resolved"] as const;
export type ReviewView = (typeof REVIEW_VIEWS)[number];
export type ReviewItem = RefundRow & { resolution: Resolution | null };

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
  const [page, total, open, history, resolved] = await Promise.all([
    listRefunds(db, contract, shop, selected, gateway),
    db.operation.count({ where: rowFilter(shop, selected) }),
    db.operation.count({ where: { shop, reviewState: "open", origin: { in: LIVE_ORIGINS } } }),
    db.operation.count({ where: { shop, reviewState: "open", origin: "backfill" } }),
    db.operation.count({ where: { shop, reviewState: "resolved" } }),
  ]);
  const resolvedBy =
    view === "resolved"
      ? await resolutions(
          db,
          shop,
          page.rows.map((r) => r.id),
        )
      : new Map<string, Resolution>();
  const items: ReviewItem[] = page.rows.map((row) => ({ ...row, resolution: resolvedBy.get(row.id) ?? null }));
  return { view, items, pageInfo: page.pageInfo, total, counts: { open, history, resolved }, filters, now: now.toISOString(), timeZone };
}
