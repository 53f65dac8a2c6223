import { z } from "zod";
import { REFUND_CREATED } from "../contracts/registry.server";
import { loadRefundDetail } from "../evidence/detail.server";
import { ADD_PROOF_INTENT, disputeProofAt } from "../exposure/dispute-proof";
import { addRefundProof, type AddProofOutcome } from "../exposure/dispute-proof.server";
import { readForm, shownRevision } from "../lib/forms/read-form";
import { formatMoney } from "../lib/money/currency";
import { formatInstant } from "../lib/time/format";
import { duplicateGroupsIn } from "../review/review.server";
import { customerSentenceIn } from "../settlement/view";
import { noSuchRefund } from "../verdicts/rows.server";
import type { ScreenContext } from "./context.server";
import { act as reviewAct, type RefundActionOutcome } from "./review-queue.server";

/** The other refunds of its duplicate pair still in the queue: resolving this one resolves them too. */
async function pairedWith({ db, shop }: ScreenContext, id: string, orderGid: string) {
  const group = (await duplicateGroupsIn(db, shop, ["open"], [orderGid])).find((g) => g.some((m) => m.id === id)) ?? [];
  const others = group.length ? await db.operation.findMany({ where: { shop, id: { in: group.filter((m) => m.id !== id).map((m) => m.id) } } }) : [];
  return others
    .sort((a, b) => a.startedAt.getTime() - b.startedAt.getTime())
    .map((op) => ({
      id: op.id,
      amountDisplay: op.amountMinor !== null && op.currency ? formatMoney(op.amountMinor, op.currency) : op.amount,
      currency: op.currency,
      startedAt: op.startedAt.toISOString(),
    }));
}

/** The evidence page of one of the shop's refunds; another shop's refund id is a 404, never data. */
export async function load(context: ScreenContext) {
  const { db, shop, gateway } = context;
  const id = context.params.id ?? "";
  const now = context.now();
  // The shop's time zone; UTC when Shopify cannot say (the page says so), never an error page.
  const [found, timeZone] = await Promise.all([loadRefundDetail(db, gateway, REFUND_CREATED, { shop, id, now }), context.timeZone()]);
  if (!found) throw noSuchRefund();
  const detail = { ...found, pairedWith: await pairedWith(context, id, found.refund.orderGid) };
  // Every instant on the page, formatted here once so the server's and the browser's text agree.
  const instants = [
    detail.refund.startedAt,
    detail.refund.decidedAt,
    detail.nextAttemptAt,
    detail.timeoutAt,
    ...detail.timeline.map((t) => t.at),
    ...detail.pairedWith.map((other) => other.startedAt),
    detail.money.followed?.processedAt,
    detail.exposure?.proof.refundedAt,
    ...(detail.exposure?.disputes.map((d) => d.evidenceDueBy) ?? []),
    disputeProofAt(detail.exposure?.disputeProof ?? null),
    detail.limits?.approval?.askedAt,
    detail.limits?.approval?.decidedAt,
  ].filter((iso): iso is string => !!iso);
  const times = Object.fromEntries(instants.map((iso) => [iso, formatInstant(iso, timeZone)]));
  // The day the customer is told the money was sent is the shop's day, as every time on the page.
  const money = { ...detail.money, sentence: customerSentenceIn(detail.money, timeZone, new Date(detail.now)) };
  return { ...detail, money, timeZone, times };
}

/** What the proof's button posts: the dispute it showed and the exposure's revision. */
const addProofForm = z.object({
  intent: z.literal(ADD_PROOF_INTENT),
  revision: shownRevision,
  dispute: z
    .string({ required_error: "Say which dispute the proof is for.", invalid_type_error: "Say which dispute the proof is for." })
    .regex(/^gid:\/\/shopify\/OrderDisputeSummary\/\d{1,20}$/, "Say which dispute the proof is for."),
});

/** Adding the refund's proof to a dispute (the exposure's own action: its send-once mark and Shopify's answer), or what the review queue posts. */
export async function act(context: ScreenContext): Promise<RefundActionOutcome | AddProofOutcome> {
  const form = await context.form();
  if (form?.get("intent") !== ADD_PROOF_INTENT) return reviewAct(context);
  const parsed = readForm(form, addProofForm, "intent");
  if (!parsed.ok) return { ok: false, status: 422, message: parsed.message, fieldErrors: parsed.fieldErrors };
  const { revision, dispute } = parsed.data;
  const proof = { shop: context.shop, operationId: context.params.id ?? "", dispute, revision };
  return addRefundProof(context.db, context.gateway, proof, context.now());
}
