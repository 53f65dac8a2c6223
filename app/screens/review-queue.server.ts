import type { PrismaClient } from "@prisma/client";
import { z } from "zod";
import { REFUND_CREATED } from "../contracts/registry.server";
import { atRiskTwiceOf } from "../exposure/shown.server";
import { overLimitsOf } from "../guardrails/audit.server";
import { readInSlices } from "../lib/db/slices";
import { httpStatus } from "../lib/http/status";
import { readForm, shownRevision } from "../lib/forms/read-form";
import { byMade, type PairCandidate } from "../review/pairs";
import { duplicateGroupsIn, requestRecheck, resolutions, resolveReview, REVIEW_STATUS, type GroupMember, type Resolution } from "../review/review.server";
import { withMakers } from "../verdicts/made.server";
import { ORIGINS, parseFilters, type DashboardFilters } from "../verdicts/filters";
import { listRefunds, noSuchRefund, rowFilter, sortOf, toRow, type RefundRow } from "../verdicts/rows.server";
import { waitingRequests } from "./approval.server";
import type { ScreenContext } from "./context.server";

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

/** A pair is one item: each list counts its groups once. */
async function queueCounts(context: ScreenContext, open: GroupMember[][], resolvedGroups: GroupMember[][]) {
  const { db, shop } = context;
  const [live, history, resolved] = await Promise.all([
    db.operation.count({ where: { shop, reviewState: "open", origin: { in: LIVE_ORIGINS } } }),
    db.operation.count({ where: { shop, reviewState: "open", origin: "backfill" } }),
    db.operation.count({ where: { shop, reviewState: "resolved" } }),
  ]);
  const beyondFirst = (of: GroupMember[][]) => of.reduce((sum, g) => sum + g.length - 1, 0);
  return {
    open: live - beyondFirst(open.filter((g) => g[0].list === "live")),
    history: history - beyondFirst(open.filter((g) => g[0].list === "history")),
    resolved: resolved - beyondFirst(resolvedGroups),
  };
}

/**
 * Where each group's item stands in the list: at the first of its refunds the filters select, in
 * the list's order (its refunds are read in slices), and how many rows the pairs fold away.
 */
async function groupPlaces(context: ScreenContext, selected: DashboardFilters, groups: GroupMember[][]) {
  const { key, descending } = sortOf(selected);
  const matching = (
    await readInSlices(
      groups.flat().map((m) => m.id),
      (slice) =>
        context.db.operation.findMany({
          where: { AND: [rowFilter(context.shop, selected), { id: { in: slice } }, ...(key === "amountMinor" ? [{ amountMinor: { not: null } }] : [])] },
          select: { id: true, startedAt: true, amountMinor: true },
        }),
    )
  ).sort(inListOrder(key, descending));
  const groupOf = new Map(groups.flatMap((g) => g.map((m) => [m.id, g] as const)));
  const standsAt = new Map<PairCandidate[], string>();
  for (const op of matching) {
    const group = groupOf.get(op.id)!;
    if (!standsAt.has(group)) standsAt.set(group, op.id);
  }
  const isMatching = new Set(matching.map((op) => op.id));
  const folded = [...standsAt.keys()].reduce((sum, g) => sum + g.filter((m) => isMatching.has(m.id)).length - 1, 0);
  return { standsAt, folded };
}

/** The page's rows as items: a pair's refunds in its one item, where it stands, wherever else they fall in the list. */
async function itemsOf(context: ScreenContext, rows: RefundRow[], groups: GroupMember[][], standsAt: Map<PairCandidate[], string>, view: ReviewView) {
  const { db, shop } = context;
  const onPage = groups.filter((g) => rows.some((row) => standsAt.get(g) === row.id));
  const memberOps = onPage.length ? await db.operation.findMany({ where: { shop, id: { in: onPage.flat().map((m) => m.id) } } }) : [];
  // Every pair's refunds on the page named in one read of the staff's names.
  const memberRows = new Map(
    (
      await withMakers(
        db,
        shop,
        memberOps.map((op) => toRow(REFUND_CREATED.contract, op)),
      )
    ).map((member) => [member.id, member]),
  );
  // A pair's refunds were resolved by one resolve: the row where its item stands carries it.
  const resolvedBy =
    view === "resolved"
      ? await resolutions(
          db,
          shop,
          rows.map((r) => r.id),
        )
      : new Map<string, Resolution>();
  const items: ReviewItem[] = [];
  for (const row of rows) {
    const group = groups.find((g) => g.some((m) => m.id === row.id));
    if (!group) {
      items.push({ ...row, resolution: resolvedBy.get(row.id) ?? null, pair: null, pairRepeatsEarlier: false });
      continue;
    }
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
  return items;
}

/** A verified refund on the queue is there because its money is at risk twice, or because it was made outside the app over a limit: it says why. */
async function sayingWhy(context: ScreenContext, items: ReviewItem[]) {
  const verified = items.filter((item) => item.status === "VERIFIED").map((item) => item.id);
  const [atRisk, overLimit] = await Promise.all([atRiskTwiceOf(context.db, context.shop, verified), overLimitsOf(context.db, context.shop, verified)]);
  return items.map((item) => {
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
}

/**
 * One page of the review queue: needs review (refunds since install), history (the shop's past,
 * verified on install) or resolved; newest first unless sorted otherwise, with the dashboard's
 * filters, sorts and keyset pages; resolved items carry who resolved them and their note. Refunds
 * over a limit waiting for an approver stand above what needs review, oldest (first to expire) first.
 */
export async function load(context: ScreenContext) {
  const { db, shop, gateway, url } = context;
  const [now, timeZone] = [context.now(), await context.timeZone()];
  const view: ReviewView = REVIEW_VIEWS.find((v) => v === url.searchParams.get("view")) ?? "open";
  const withState = new URLSearchParams(url.searchParams);
  withState.set("review", view === "resolved" ? "resolved" : "open");
  const filters = parseFilters(withState, { now, timeZone });
  const selected = viewFilter(view, filters);
  const [page, total, open, resolvedGroups] = await Promise.all([
    listRefunds(db, REFUND_CREATED.contract, shop, selected, gateway),
    db.operation.count({ where: rowFilter(shop, selected) }),
    duplicateGroupsIn(db, shop, ["open"]),
    resolvedTogether(db, shop),
  ]);
  const inView = view === "resolved" ? resolvedGroups : open.filter((g) => g[0].list === (view === "history" ? "history" : "live"));
  const [counts, { standsAt, folded }] = await Promise.all([queueCounts(context, open, resolvedGroups), groupPlaces(context, selected, inView)]);
  const items = await sayingWhy(context, await itemsOf(context, page.rows, inView, standsAt, view));
  const waiting = view === "open" ? await waitingRequests(db, shop, now) : [];
  return { view, items, waiting, pageInfo: page.pageInfo, total: total - folded, counts, filters, now: now.toISOString(), timeZone };
}

/** What the evidence page and the review queue can post: resolve with a note, or re-check, each with the revision shown. */
const refundActionSchema = z.discriminatedUnion(
  "intent",
  [
    z.object({
      intent: z.literal("resolve"),
      revision: shownRevision,
      note: z
        .string({ invalid_type_error: "Write the note as text." })
        .optional()
        .transform((note) => (note ?? "").trim())
        .refine((note) => note.length > 0, "Write a note that says how this refund was resolved.")
        .refine((note) => note.length <= 2000, "The note is longer than 2,000 characters."),
    }),
    z.object({ intent: z.literal("recheck"), revision: shownRevision }),
  ],
  {
    errorMap: (issue, ctx) => (issue.code === z.ZodIssueCode.invalid_union_discriminator ? { message: "Unknown action." } : { message: ctx.defaultError }),
  },
);

export type RefundActionFieldErrors = Partial<Record<"intent" | "revision" | "note", string>>;
/** A resolve that lost the race names who won, their note and when (null when nobody did), so that nobody's note is lost unseen. */
export type RefundActionOutcome =
  | { ok: true; status: 200; message: string }
  | {
      ok: false;
      status: 409 | 422;
      message: string;
      fieldErrors?: RefundActionFieldErrors;
      resolvedBy: string | null;
      resolvedNote: string | null;
      resolvedAt: string | null;
    };

const NOBODY = { resolvedBy: null, resolvedNote: null, resolvedAt: null };

/**
 * Resolve or re-check one refund (`id`; the queue's item posts its own), by the staff member asking.
 * Malformed input is a 422 with words for the field, never an exception; another shop's refund a 404.
 */
export async function act(context: ScreenContext, id = context.params.id): Promise<RefundActionOutcome> {
  const form = await context.form();
  const refundId = id ?? String(form?.get("id") ?? "");
  const parsed = readForm(form, refundActionSchema, "intent");
  if (!parsed.ok) return { ok: false, status: 422, message: parsed.message, fieldErrors: parsed.fieldErrors, ...NOBODY };
  const input = parsed.data;
  const { db, shop, staff } = context;
  const outcome =
    input.intent === "resolve"
      ? await resolveReview(db, { shop, id: refundId, revision: input.revision, note: input.note, actor: staff.userId }, context.now())
      : await requestRecheck(db, { shop, id: refundId, revision: input.revision, actor: staff.userId }, context.now());
  if (!outcome.ok) {
    if (outcome.code === "NOT_FOUND") throw noSuchRefund();
    // Everything the outcome says (a lost race names who won) passes through, with the status its code maps to.
    return { ...NOBODY, ...outcome, ok: false, status: httpStatus(outcome, REVIEW_STATUS) as 409 | 422 };
  }
  const others = (outcome.resolved ?? 1) - 1;
  return {
    ok: true,
    status: 200,
    message:
      input.intent === "recheck"
        ? "Re-check requested: the worker reads this refund back on its next pass."
        : others > 0
          ? `Resolved, with the ${others === 1 ? "other refund of its duplicate pair" : `other ${others} refunds of its duplicate`}. The note is in the audit trail.`
          : "Resolved. The note is in the audit trail.",
  };
}
