import { getDirectiveValues, GraphQLError, type GraphQLResolveInfo } from "graphql";
import type { Gate } from "./gate";
import { parseMinor, restDecimal } from "./money";
import { STORE_CREDIT_GATEWAY, type FakeApp, type FakeOrder, type FakeRefund, type FakeShop, type RestockType } from "./shop";
import { parseGid, type Views } from "./views";
import { idempotencyRequired } from "./versions";

export interface RefundInput {
  orderId: string;
  note?: string | null;
  notify?: boolean | null;
  currency?: string | null;
  processedAt?: string | null;
  transactions?: { amount: string; gateway: string; kind: string; orderId: string; parentId?: string | null }[] | null;
  allowOverRefunding?: boolean | null;
  refundLineItems?: { lineItemId: string; quantity: number; restockType?: RestockType | null; locationId?: string | null }[] | null;
  /** RefundMethodInput is @oneOf: store credit is its only method. */
  refundMethods?: { storeCreditRefund?: { amount: { amount: string; currencyCode: string }; expiresAt?: string | null } | null }[] | null;
}

export interface RefundCreateHost {
  readonly shop: FakeShop;
  readonly views: Views;
  readonly stats: { refundCreateCalls: number; refundsCreated: number };
  readonly idempotencyKeys: IdempotencyKeys;
  nextRefundCreateError: string | null;
  refundCreateGate: Gate;
  onRefundCreated?: (refund: FakeRefund) => void;
  /** The app whose token calls refundCreate: the refund's agreement names it ("the application that created the agreement"). */
  callingApp?: FakeApp | null;
}

type UserError = { field: string[]; message: string };
/** What a refundCreate answered, kept so that the same key answers it again. */
interface Outcome {
  orderId: bigint | null;
  refundId: bigint | null;
  userErrors: UserError[];
}

/**
 * The shop's `@idempotent` keys. Shopify's changelog for inventory mutations names the codes
 * IDEMPOTENCY_CONCURRENT_REQUEST, IDEMPOTENCY_KEY_PARAMETER_MISMATCH and
 * IDEMPOTENCY_PREVIOUS_ATTEMPT_FAILED; that refundCreate answers with the same codes is NOT in
 * Shopify's documents. This fake assumes it does, as a top-level error with that
 * `extensions.code` and `data.refundCreate: null`; the messages are ours. It never answers
 * IDEMPOTENCY_PREVIOUS_ATTEMPT_FAILED: a first attempt that answered user errors is replayed
 * with those errors, and one that failed otherwise is forgotten. How long Shopify remembers a
 * key is not documented: here until `forget()`.
 */
export class IdempotencyKeys {
  private readonly keys = new Map<string, { input: string; outcome?: Outcome }>();

  forget(): void {
    this.keys.clear();
  }

  /** Whether Shopify remembers `key` (its request may still be running). */
  has(key: string): boolean {
    return this.keys.has(key);
  }

  get(key: string) {
    return this.keys.get(key);
  }

  start(key: string, input: string) {
    const entry: { input: string; outcome?: Outcome } = { input };
    this.keys.set(key, entry);
    return entry;
  }

  drop(key: string, entry: object): void {
    if (this.keys.get(key) === entry) this.keys.delete(key);
  }
}

const topLevel = (message: string, code: string) => new GraphQLError(message, { extensions: { code } });

/** JSON with object keys sorted, so the same input compares equal whatever order its fields came in. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}

function idempotencyKey(info: GraphQLResolveInfo): string | undefined {
  const directive = info.schema.getDirective("idempotent");
  const values = directive && getDirectiveValues(directive, info.fieldNodes[0], info.variableValues);
  return values?.key as string | undefined;
}

/** refundCreate as the version that answers the request runs it: with `@idempotent` required from 2026-04. */
export async function refundCreate(host: RefundCreateHost, input: RefundInput, apiVersion: string, info: GraphQLResolveInfo) {
  host.stats.refundCreateCalls++;
  const key = idempotencyKey(info);
  if (key === undefined) {
    // Shopify's changelog: "calling these mutations without an idempotency directive will result in an error at runtime".
    // Its message and code are not documented; these are our model of it.
    if (idempotencyRequired(apiVersion)) throw topLevel("The @idempotent directive is required for this mutation.", "BAD_REQUEST");
    return payload(host, await create(host, input));
  }
  if (!key.trim()) throw topLevel("The idempotency key cannot be an empty string or whitespace only.", "BAD_REQUEST");
  const fingerprint = canonical(input);
  const known = host.idempotencyKeys.get(key);
  if (known) {
    if (known.input !== fingerprint) throw topLevel("The idempotency key was already used with different parameters.", "IDEMPOTENCY_KEY_PARAMETER_MISMATCH");
    if (!known.outcome) throw topLevel("A request with this idempotency key is still being processed.", "IDEMPOTENCY_CONCURRENT_REQUEST");
    return payload(host, known.outcome);
  }
  const entry = host.idempotencyKeys.start(key, fingerprint);
  try {
    entry.outcome = await create(host, input);
  } catch (error) {
    host.idempotencyKeys.drop(key, entry);
    throw error;
  }
  return payload(host, entry.outcome);
}

function payload(host: RefundCreateHost, outcome: Outcome) {
  const order = outcome.orderId === null ? undefined : host.shop.orders.get(outcome.orderId);
  const refund = outcome.refundId === null ? undefined : host.shop.refunds.get(outcome.refundId);
  return { order: order ? host.views.order(order) : null, refund: refund ? host.views.refund(refund) : null, userErrors: outcome.userErrors };
}

const symbol = (currency: string) => (currency === "USD" ? "$" : `${currency} `);

async function create(host: RefundCreateHost, input: RefundInput): Promise<Outcome> {
  await host.refundCreateGate.pass();
  const { shop } = host;
  const orderId = parseGid(input.orderId, "Order")?.id;
  const order = orderId === undefined ? undefined : shop.orders.get(orderId);
  const refused = (field: string[], message: string): Outcome => ({ orderId: null, refundId: null, userErrors: [{ field, message }] });
  if (!order) return refused(["orderId"], "Order does not exist");
  if (host.nextRefundCreateError) {
    const message = host.nextRefundCreateError;
    host.nextRefundCreateError = null;
    return refused(["transactions"], message);
  }
  const currencyError = checkCurrency(order, input.currency);
  if (currencyError) return refused(["currency"], currencyError);
  const lines = [];
  for (const [i, t] of (input.transactions ?? []).entries()) {
    let amountMinor: bigint;
    try {
      // In the presentment currency: RefundInput.currency "must be the presentment currency".
      amountMinor = parseMinor(t.amount, order.presentmentCurrency);
    } catch {
      return refused(["transactions", String(i), "amount"], "Amount is invalid");
    }
    const parentId = t.parentId ? parseGid(t.parentId, "OrderTransaction")?.id : undefined;
    const parent = t.parentId ? shop.captures(order).find((c) => c.id === parentId) : shop.parentFor(order, t.gateway);
    if (t.parentId && !parent) return refused(["transactions", String(i), "parentId"], "Parent transaction does not exist");
    lines.push({ amountMinor, gateway: t.gateway, parentId: parent?.id ?? null, status: "SUCCESS" as const, errorCode: null });
  }
  for (const [i, method] of (input.refundMethods ?? []).entries()) {
    const credit = method.storeCreditRefund;
    if (!credit) continue;
    const field = ["refundMethods", String(i), "storeCreditRefund", "amount"];
    if (credit.amount.currencyCode !== order.presentmentCurrency)
      return refused([...field, "currencyCode"], `Currency must be the order's presentment currency (${order.presentmentCurrency}).`);
    let amountMinor: bigint;
    try {
      amountMinor = parseMinor(credit.amount.amount, order.presentmentCurrency);
    } catch {
      return refused([...field, "amount"], "Amount is invalid");
    }
    // Store credit is "a REFUND transaction" of its own (its credit's origin is an OrderTransaction), on no capture.
    lines.push({ amountMinor, gateway: STORE_CREDIT_GATEWAY, parentId: null, status: "SUCCESS" as const, errorCode: null });
  }
  const lineItems = [];
  for (const [i, line] of (input.refundLineItems ?? []).entries()) {
    const lineItemId = parseGid(line.lineItemId, "LineItem")?.id;
    const lineItem = order.lineItems.find((l) => l.id === lineItemId);
    if (!lineItem) return refused(["refundLineItems", String(i), "lineItemId"], "Line item does not exist");
    // RefundLineItemRestockType: LEGACY_RESTOCK "is not accepted when creating new refunds" (the message is ours).
    if (line.restockType === "LEGACY_RESTOCK") return refused(["refundLineItems", String(i), "restockType"], "Restock type legacy_restock is not accepted");
    const earlier = lineItems.filter((l) => l.lineItemId === lineItem.id).reduce((sum, l) => sum + l.quantity, 0);
    if (line.quantity > lineItem.quantity - shop.refundedQuantity(order, lineItem.id) - earlier)
      return refused(["refundLineItems", String(i), "quantity"], "Quantity cannot refund more items than were purchased");
    lineItems.push({ lineItemId: lineItem.id, quantity: line.quantity, restockType: line.restockType ?? undefined });
  }
  const amountMinor = lines.reduce((sum, l) => sum + l.amountMinor, 0n);
  const refundable = shop.refundableMinor(order);
  if (amountMinor > refundable && !input.allowOverRefunding) {
    const currency = order.presentmentCurrency;
    return refused(
      ["transactions"],
      `Refund amount ${symbol(currency)}${restDecimal(amountMinor, currency)} is greater than net payment received ${symbol(currency)}${restDecimal(refundable, currency)}`,
    );
  }
  const refund = shop.recordRefund(order, {
    transactions: lines,
    lineItems,
    note: input.note ?? null,
    app: host.callingApp ?? null,
    processedAt: input.processedAt ? new Date(input.processedAt) : undefined,
  });
  host.stats.refundsCreated++;
  host.onRefundCreated?.(refund);
  return { orderId: order.id, refundId: refund.id, userErrors: [] };
}

/** RefundInput.currency: "must be the presentment currency … required for orders where the currency and presentment currency differ". */
function checkCurrency(order: FakeOrder, currency: string | null | undefined): string | undefined {
  if (!currency)
    return order.presentmentCurrency !== order.currency ? "Currency is required for orders where the currency and presentment currency differ." : undefined;
  if (currency !== order.presentmentCurrency) return `Currency must be the order's presentment currency (${order.presentmentCurrency}).`;
  return undefined;
}
