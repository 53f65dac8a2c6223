import type { Contract } from "../contracts/schema";
import { amountDifference, money, reasonInWords, VERDICT_LABELS } from "../verdicts/words";
import { duplicateOfInWords, type DuplicatesOutput } from "../verdicts/duplicates";
import { gatewayInWords, transactionErrorInWords } from "./transaction-errors";
import { numberOfGid } from "../shopify/ids";

/** What Shopify recorded, from the latest read-back of the refund (null fields when it did not say). */
export interface RecordedRefund {
  orderGid: string | null;
  orderName: string | null;
  amount: string | null;
  currency: string | null;
  transactions: { gateway: string | null; status: string | null; errorCode: string | null }[];
}

/** Another of the shop's refunds, as the evidence page links to it. */
export interface RelatedRefund {
  id: string;
  refundGid: string;
  orderName: string | null;
  amount: string | null;
  currency: string | null;
  status: string;
}

export interface LeadInput {
  contract: Contract;
  status: string;
  reason: string | null;
  reasons: string[];
  requested: { amount: string | null; currency: string | null };
  order: { gid: string; name: string | null };
  recorded: RecordedRefund | null;
  /** The shop's other refunds on this refund's order. */
  sameOrder: RelatedRefund[];
  /** The shop's refunds on the order Shopify recorded this refund on, when that is another order. */
  recordedOrder: RelatedRefund[];
  /** The refunds this one repeats, as the contract's duplicates channel found them in Shopify's record (1.2.0 on). */
  duplicateOf?: DuplicatesOutput | null;
  /** Who confirmed it in the app as another refund on the order, when a person did ("Staff member 42"). */
  intendedBy?: string | null;
}

export interface EvidenceLink {
  label: string;
  url: string;
  /** Opens in Shopify admin (target _top), not inside the app. */
  admin?: boolean;
}

export interface EvidenceLead {
  /** The one sentence a merchant reads first. */
  sentence: string;
  /** More sentences: the numbers behind it, and what else decided the verdict. */
  details: string[];
  nextStep: string | null;
  links: EvidenceLink[];
}

const orderLabel = (name: string | null, gid: string | null) => name ?? (gid ? `order ${numberOfGid(gid)}` : "another order");
export const evidenceUrl = (id: string) => `/app/refunds/${id}`;
export const adminOrderLink = (gid: string) => `shopify://admin/orders/${numberOfGid(gid)}`;

function relatedLink(refund: RelatedRefund): EvidenceLink {
  return {
    label: `Refund of ${money(refund.amount, refund.currency)} on ${refund.orderName ?? "the order"} (${VERDICT_LABELS[refund.status] ?? refund.status})`,
    url: evidenceUrl(refund.id),
  };
}

type Part = Omit<EvidenceLead, "details"> & { details?: string[] };

function wrongAmount(input: LeadInput): Part | undefined {
  const { recorded, requested } = input;
  if (!recorded?.amount || !requested.amount || !requested.currency) return undefined;
  if ((recorded.currency ?? requested.currency) !== requested.currency) return wrongCurrency(input);
  const difference = amountDifference(input);
  if (!difference)
    return {
      sentence: `Shopify recorded ${money(recorded.amount, recorded.currency ?? requested.currency)}; the refund asked for ${money(requested.amount, requested.currency)}.`,
      nextStep: checkOrder,
      links: [],
    };
  return {
    sentence: difference.sentence,
    nextStep: `Open the order in Shopify admin and settle the ${difference.difference} difference with the customer.`,
    links: [],
  };
}

const checkOrder = "Open the order in Shopify admin and check what the customer was refunded.";

function wrongCurrency(input: LeadInput): Part | undefined {
  const { recorded, requested } = input;
  if (!recorded?.currency || !requested.currency) return undefined;
  return {
    sentence: `Shopify recorded the refund in ${recorded.currency} (${money(recorded.amount, recorded.currency)}); the refund asked for ${requested.currency} (${money(requested.amount, requested.currency)}).`,
    nextStep: `${checkOrder} The money moved in a currency the refund was not for.`,
    links: [],
  };
}

function wrongOrder(input: LeadInput): Part | undefined {
  const { recorded, order } = input;
  if (!recorded?.orderGid) return undefined;
  const other = orderLabel(recorded.orderName, recorded.orderGid);
  return {
    sentence: `Shopify recorded this refund on ${other}, not on ${orderLabel(order.name, order.gid)}, the order it was for.`,
    nextStep: `Check both orders in Shopify admin: the customer of ${orderLabel(order.name, order.gid)} may not have been refunded, and ${other} has a refund it was not meant to have. A refund issued from this page goes to ${orderLabel(order.name, order.gid)}.`,
    links: [
      { label: `${orderLabel(order.name, order.gid)} (the order it was for) in Shopify admin`, url: adminOrderLink(order.gid), admin: true },
      { label: `${other} (where Shopify recorded it) in Shopify admin`, url: adminOrderLink(recorded.orderGid), admin: true },
      ...input.recordedOrder.map(relatedLink),
    ],
  };
}

function duplicate(input: LeadInput): Part {
  const where = orderLabel(input.order.name, input.order.gid);
  const repeated = input.duplicateOf?.refunds.length ? input.duplicateOf : null;
  if (repeated) {
    const ids = new Set(repeated.refunds.map((r) => r.id));
    return {
      sentence: `This refund of ${money(input.requested.amount, input.requested.currency)} was ${duplicateOfInWords(repeated, money, where)}. Shopify holds both.`,
      nextStep: "Do not retry. Open the order in Shopify admin and check that the customer was refunded only once.",
      links: input.sameOrder.filter((r) => ids.has(r.refundGid)).map(relatedLink),
    };
  }
  const others = input.sameOrder;
  const amounts = others.map((r) => money(r.amount, r.currency));
  return {
    sentence: others.length
      ? `Shopify holds ${others.length + 1} refunds on ${where}: this one for ${money(input.requested.amount, input.requested.currency)} and ${others.length === 1 ? "another" : `${others.length} others`} for ${amounts.join(", ")}.`
      : `Shopify created more than one refund on ${where} since this one started; this app has no record of the other.`,
    nextStep: "Do not retry. Open the order in Shopify admin and check that the customer was refunded only once.",
    links: others.map(relatedLink),
  };
}

function gatewayFailure(input: LeadInput): Part | undefined {
  const failed = (input.recorded?.transactions ?? []).filter((t) => t.status === "FAILURE" || t.status === "ERROR");
  if (!failed.length) return undefined;
  const causes = failed.map((t) => {
    const error = transactionErrorInWords(t.errorCode);
    return `${gatewayInWords(t.gateway)}${error ? (failed.length > 1 ? ` (${error})` : `: ${error}`) : ""}`;
  });
  const list = causes.length > 1 ? `${causes.slice(0, -1).join(", ")} and ${causes.at(-1)}` : causes[0];
  return {
    sentence: `The refund of ${money(input.requested.amount, input.requested.currency)} failed at ${list}.`,
    nextStep:
      "The customer has not been paid this money. Refund it again from the order in Shopify admin (by another payment method if the gateway keeps refusing) and tell the customer.",
    links: [],
  };
}

function forReason(reason: string, input: LeadInput): Part | undefined {
  switch (reason) {
    case "refund_amount_mismatch":
      return wrongAmount(input);
    case "refund_currency_mismatch":
      return wrongCurrency(input);
    case "refund_on_wrong_order":
      return wrongOrder(input);
    case "duplicate_refund_present":
    case "duplicate_refund_in_history":
      return duplicate(input);
    case "transaction_failed":
      return gatewayFailure(input);
    default:
      return undefined;
  }
}

/** The evidence page's lead: a sentence in a merchant's words with the numbers that matter, and what to do. */
export function evidenceLead(input: LeadInput): EvidenceLead {
  const { contract, status, reason } = input;
  const plain = reasonInWords(contract, status, reason, input);
  const main = (reason && (status === "CONTRADICTED" || status === "FAILED") ? forReason(reason, input) : undefined) ?? {
    sentence: plain,
    nextStep: nextStepFor(status),
    links: [],
  };
  const others = (status === "CONTRADICTED" || status === "FAILED" ? input.reasons : [])
    .filter((r) => r !== reason)
    .map((r) => forReason(r, input)?.sentence ?? reasonInWords(contract, status, r, input))
    .filter((sentence) => sentence && sentence !== main.sentence);
  const seen = new Set(main.links.map((l) => l.url));
  const moreLinks = (status === "CONTRADICTED" || status === "FAILED" ? input.reasons : [])
    .filter((r) => r !== reason)
    .flatMap((r) => forReason(r, input)?.links ?? [])
    .filter((l) => !seen.has(l.url) && seen.add(l.url));
  const intended =
    input.intendedBy !== undefined
      ? [`Issued from the app and confirmed as another refund on ${orderLabel(input.order.name, input.order.gid)} by ${input.intendedBy ?? "a staff member"}.`]
      : [];
  return {
    sentence: main.sentence,
    details: [...(main.details ?? []), ...others.map((s) => `Also: ${s}`), ...intended],
    nextStep: main.nextStep,
    links: [...main.links, ...moreLinks],
  };
}

function nextStepFor(status: string): string | null {
  switch (status) {
    case "UNVERIFIABLE":
      return "Open the order in Shopify admin to see whether the refund is there, or re-check now: a refund Shopify shows at last is verified.";
    case "CONTRADICTED":
    case "FAILED":
      return checkOrder;
    default:
      return null;
  }
}

/** The read-back's refund (`data.refund`, a channel output) as the lead needs it; null when Shopify showed none. */
export function recordedRefundOf(readback: unknown): RecordedRefund | null {
  const refund = (readback as { data?: { refund?: unknown } } | null)?.data?.refund;
  if (!refund || typeof refund !== "object") return null;
  const r = refund as {
    order?: { id?: unknown; name?: unknown } | null;
    totalRefundedSet?: { presentmentMoney?: { amount?: unknown; currencyCode?: unknown } | null } | null;
    transactions?: { nodes?: unknown[] } | unknown[] | null;
  };
  const text = (v: unknown) => (typeof v === "string" ? v : typeof v === "number" ? String(v) : null);
  const nodes = Array.isArray(r.transactions) ? r.transactions : Array.isArray(r.transactions?.nodes) ? r.transactions.nodes : [];
  return {
    orderGid: text(r.order?.id),
    orderName: text(r.order?.name),
    amount: text(r.totalRefundedSet?.presentmentMoney?.amount),
    currency: text(r.totalRefundedSet?.presentmentMoney?.currencyCode),
    transactions: nodes.map((n) => {
      const t = (n ?? {}) as { gateway?: unknown; status?: unknown; errorCode?: unknown };
      return { gateway: text(t.gateway), status: text(t.status), errorCode: text(t.errorCode) };
    }),
  };
}
