import type { PrismaClient, RefundApproval, RefundRecord } from "@prisma/client";
import { z } from "zod";
import { REFUND_CREATED } from "../contracts/registry.server";
import { FORM_EXPIRED, readForm } from "../lib/forms/read-form";
import { httpStatus } from "../lib/http/status";
import { breachesSentence, limitBreaches } from "../guardrails/limits";
import { readLimits, recentRefunds } from "../guardrails/limits.server";
import { approvalAudit } from "../guardrails/audit.server";
import { formatMoney } from "../lib/money/currency";
import { staffNames } from "../staff/identity.server";
import { approversInWords, approversOf, mayNotDecide } from "../guardrails/approvers.server";
import { approveRequest, declineRequest, MAX_REASON_LENGTH } from "../refunds/approval.server";
import { fail, ISSUE_STATUS, type IssueResult } from "../refunds/outcomes";
import { orderNameOf } from "../refunds/pipeline.server";
import { RISK_CODES } from "../refunds/risk";
import { numberOfGid } from "../shopify/ids";
import type { ScreenContext } from "./context.server";

/** One request as people see it: the audit trail every screen tells (guardrails/audit.server.ts), with its refund: how much, which order. */
function requestView(request: RefundApproval, record: RefundRecord, names: Map<string, string>, now: Date) {
  const audit = approvalAudit(request, names, now);
  return {
    id: audit.requestId,
    state: audit.state,
    sysId: record.sysId,
    amount: formatMoney(record.amountMinor, record.currency),
    currency: record.currency,
    orderName: orderNameOf(record),
    orderId: numberOfGid(record.orderId),
    note: record.note,
    askedBy: audit.askedBy,
    askedByUserId: request.askedBy,
    askedAt: audit.askedAt,
    expiresAt: audit.expiresAt,
    limits: audit.over,
    decidedBy: audit.decidedBy,
    decidedAt: audit.decidedAt,
    decisionNote: audit.note,
    limitsWhenDecided: audit.limitsWhenDecided,
    refund: { status: record.status, outcome: record.shopifyOutcome, refundRef: record.refundRef, failureReason: record.failureReason },
  };
}
export type RequestView = ReturnType<typeof requestView>;

/** The shop's requests still waiting, oldest first (the review queue's "Waiting for approval"). */
export async function waitingRequests(db: PrismaClient, shop: string, now: Date): Promise<RequestView[]> {
  const requests = await db.refundApproval.findMany({ where: { shop, state: "waiting", expiresAt: { gt: now } }, orderBy: { askedAt: "asc" }, take: 200 });
  const records = new Map((await db.refundRecord.findMany({ where: { id: { in: requests.map((r) => r.recordId) } } })).map((r) => [r.id, r]));
  const names = await staffNames(
    db,
    shop,
    requests.map((r) => r.askedBy),
  );
  return requests.flatMap((request) => (records.has(request.recordId) ? [requestView(request, records.get(request.recordId)!, names, now)] : []));
}

/** The request page: the request, the limits as they stand now, and whether this person may decide it. */
export async function load(context: ScreenContext) {
  const { db, shop, staff: viewer } = context;
  const [id, now] = [context.params.id ?? "", context.now()];
  const request = await db.refundApproval.findFirst({ where: { id, shop } });
  const record = request && (await db.refundRecord.findUnique({ where: { id: request.recordId } }));
  if (!request || !record) throw new Response("There is no such refund request in this shop.", { status: 404 });
  const names = await staffNames(db, shop, [request.askedBy, ...(request.decidedBy ? [request.decidedBy] : [])]);
  const view = requestView(request, record, names, now);
  const limits = await readLimits(db, shop);
  const shopCurrency = limits.currency || record.shopCurrency || record.currency;
  const now_ = limitBreaches(
    limits,
    request.askedBy,
    shopCurrency,
    record.limitAmountMinor ?? 0n,
    await recentRefunds(db, shop, request.askedBy, shopCurrency, now),
  );
  const notDecider = view.state === "waiting" ? mayNotDecide(request, viewer, limits) : null;
  return {
    request: view,
    limitsNow: {
      revision: limits.revision,
      changed: limits.revision !== request.limitsRevision,
      words: now_.length ? breachesSentence(now_, `${view.askedBy}'s`) : "It is within the shop's limits as they are now.",
    },
    approvers: approversInWords(await approversOf(db, shop, request.askedBy)),
    viewer: { mayDecide: view.state === "waiting" && !notDecider, why: notDecider?.words ?? null },
  };
}

const decisionSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("approve"),
    note: z.string().max(MAX_REASON_LENGTH, `At most ${MAX_REASON_LENGTH} characters.`).default(""),
    limitsRevision: z.coerce.number({ invalid_type_error: FORM_EXPIRED }).int(FORM_EXPIRED).min(0, FORM_EXPIRED),
    confirmAnother: z
      .string()
      .optional()
      .transform((value) => value === "yes"),
    confirmRisk: z
      .string()
      .optional()
      .transform((value) => (value ? value.split(",") : []))
      .pipe(z.array(z.enum(RISK_CODES, { errorMap: () => ({ message: FORM_EXPIRED }) }))),
  }),
  z.object({ intent: z.literal("decline"), reason: z.string({ required_error: "Say why you decline it." }).default("") }),
]);

/** What approve or decline came to, for the page's banner. */
export interface DecisionAnswer {
  ok: boolean;
  status: number;
  intent: string;
  code?: string;
  message: string;
  risks?: string[];
}

/** The request page's approve or decline, parsed at the door; the decision itself is refunds/approval.server's. */
async function decideFromForm(context: ScreenContext, form: FormData | null): Promise<IssueResult> {
  const parsed = readForm(form, decisionSchema, "intent");
  if (!parsed.ok) return fail("INVALID_FORM", parsed.message, undefined, parsed.fieldErrors);
  const input = parsed.data;
  const { db, shop, staff: approver } = context;
  const requestId = context.params.id ?? "";
  if (input.intent === "decline") return declineRequest(db, { shop, requestId, approver, reason: input.reason }, context.now());
  const approval = {
    shop,
    requestId,
    approver,
    note: input.note.trim() || null,
    limitsRevision: input.limitsRevision,
    confirmAnother: input.confirmAnother,
    confirmRisk: input.confirmRisk,
  };
  return approveRequest({ db, contract: REFUND_CREATED, gateway: context.gateway, now: context.now() }, approval);
}

/** Approve or decline, in words for the banner, with the status the outcome's code maps to. */
export async function act(context: ScreenContext): Promise<DecisionAnswer> {
  const form = await context.form();
  const intent = String(form?.get("intent") ?? "");
  const result = await decideFromForm(context, form);
  const status = httpStatus(result, ISSUE_STATUS);
  if (!result.ok) return { ok: false, status, intent, code: result.code, message: result.message, ...(result.risks ? { risks: result.risks } : {}) };
  const message =
    intent === "decline"
      ? `Declined: ${result.record.sysId} was not sent to Shopify, and the person who asked sees your reason.`
      : `Approved: Shopify accepted ${result.record.sysId}. The app is checking that Shopify recorded it as asked.`;
  return { ok: true, status, intent, message };
}
