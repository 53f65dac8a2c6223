import { readFileSync } from "node:fs";
import { buildSchema, execute, getOperationAST, parse, validate, type GraphQLError, type GraphQLSchema } from "graphql";
import { requestedCost } from "./cost";
import { parseMinor, restDecimal } from "./money";
import type { FakeRefund, FakeShop } from "./shop";
import { connection, gid, parseGid, Views } from "./views";

export const ADMIN_API_VERSION = "2025-07";
export const MAX_QUERY_COST = 1000;

let cachedSchema: GraphQLSchema | undefined;
export function adminSchema(): GraphQLSchema {
  cachedSchema ??= buildSchema(readFileSync(new URL("./admin-2025-07.graphql", import.meta.url), "utf8"));
  return cachedSchema;
}

export interface Bucket {
  maximumAvailable: number;
  restoreRate: number;
  currentlyAvailable: number;
  updatedAtMs: number;
}

export interface AdminApiStats {
  requests: number;
  graphqlRequests: number;
  /** Requests made when the bucket could not cover their cost: rate-limit violations. */
  throttled: number;
  /** THROTTLED answers the tests injected (not the client's fault). */
  injectedThrottles: number;
  requestedCost: number;
  refundCreateCalls: number;
}

type JsonBody = Record<string, unknown>;

function graphqlErrors(errors: readonly GraphQLError[], code: string) {
  return errors.map((error) => ({ ...error.toJSON(), extensions: { code, ...(error.extensions ?? {}) } }));
}

/** Parses `updated_at:>'2026-11-29T10:00:00Z'` and `created_at:>=…` terms of Shopify's order search syntax. */
function orderFilter(query: string | null | undefined) {
  const terms = [...(query ?? "").matchAll(/(updated_at|created_at):(>=|<=|>|<)'?([^'\s]+)'?/g)];
  return (order: { updatedAt: Date; createdAt: Date }) =>
    terms.every(([, field, op, value]) => {
      const left = (field === "updated_at" ? order.updatedAt : order.createdAt).getTime();
      const right = Date.parse(value);
      return op === ">" ? left > right : op === ">=" ? left >= right : op === "<" ? left < right : left <= right;
    });
}

export class AdminApi {
  readonly views: Views;
  readonly bucket: Bucket;
  readonly stats: AdminApiStats = { requests: 0, graphqlRequests: 0, throttled: 0, injectedThrottles: 0, requestedCost: 0, refundCreateCalls: 0 };
  /** The next refundCreate answers with this user error (as when the order changed since the app checked it). */
  nextRefundCreateError: string | null = null;
  /** Called for every refund refundCreate makes (the FakeShopify sends its refunds/create webhook). */
  onRefundCreated?: (refund: FakeRefund) => void;

  constructor(
    readonly shop: FakeShop,
    options: { maximumAvailable?: number; restoreRate?: number } = {},
  ) {
    this.views = new Views(shop);
    const maximumAvailable = options.maximumAvailable ?? 1000;
    this.bucket = { maximumAvailable, restoreRate: options.restoreRate ?? 100, currentlyAvailable: maximumAvailable, updatedAtMs: shop.now().getTime() };
  }

  private refill(): void {
    const now = this.shop.now().getTime();
    const restored = ((now - this.bucket.updatedAtMs) / 1000) * this.bucket.restoreRate;
    this.bucket.currentlyAvailable = Math.min(this.bucket.maximumAvailable, this.bucket.currentlyAvailable + restored);
    this.bucket.updatedAtMs = now;
  }

  private costExtension(requested: number, actual: number | null) {
    return {
      cost: {
        requestedQueryCost: requested,
        actualQueryCost: actual,
        throttleStatus: {
          maximumAvailable: this.bucket.maximumAvailable,
          currentlyAvailable: Math.floor(this.bucket.currentlyAvailable),
          restoreRate: this.bucket.restoreRate,
        },
      },
    };
  }

  /** Executes one GraphQL request body as Shopify does: validation errors and THROTTLED come back as HTTP 200 with `errors`. */
  async graphql(body: { query?: unknown; variables?: unknown; operationName?: unknown }): Promise<JsonBody> {
    this.stats.graphqlRequests++;
    if (typeof body.query !== "string") return { errors: [{ message: "Parameter Missing or Invalid", extensions: { code: "BAD_REQUEST" } }] };
    const schema = adminSchema();
    let document;
    try {
      document = parse(body.query);
    } catch (error) {
      return { errors: graphqlErrors([error as GraphQLError], "PARSE_ERROR") };
    }
    const validationErrors = validate(schema, document);
    if (validationErrors.length) return { errors: graphqlErrors(validationErrors, "GRAPHQL_VALIDATION_FAILED") };
    const variables = (body.variables && typeof body.variables === "object" ? body.variables : {}) as Record<string, unknown>;
    const operation = getOperationAST(document, typeof body.operationName === "string" ? body.operationName : undefined);
    if (!operation) return { errors: [{ message: "An operation name is required", extensions: { code: "BAD_REQUEST" } }] };
    let cost: number;
    try {
      cost = requestedCost(schema, operation, variables);
    } catch (error) {
      return { errors: graphqlErrors([error as GraphQLError], "argumentLiteralsIncompatible") };
    }
    this.refill();
    if (cost > MAX_QUERY_COST) {
      return {
        errors: [{ message: `Query cost is ${cost}, which exceeds the single query max cost limit (${MAX_QUERY_COST}).`, extensions: { code: "MAX_COST_EXCEEDED", cost, maxCost: MAX_QUERY_COST } }],
        extensions: this.costExtension(cost, null),
      };
    }
    if (cost > this.bucket.currentlyAvailable) {
      this.stats.throttled++;
      return {
        errors: [{ message: "Throttled", extensions: { code: "THROTTLED", documentation: "https://shopify.dev/api/usage/rate-limits" } }],
        extensions: this.costExtension(cost, null),
      };
    }
    this.bucket.currentlyAvailable -= cost;
    this.stats.requestedCost += cost;
    const result = await execute({ schema, document, rootValue: this.root(), variableValues: variables, operationName: operation.name?.value });
    const response: JsonBody = { data: result.data ?? null, extensions: this.costExtension(cost, cost) };
    if (result.errors?.length) response.errors = graphqlErrors(result.errors, "INTERNAL_SERVER_ERROR");
    return response;
  }

  private visibleRefund(id: string) {
    const parsed = parseGid(id, "Refund");
    const refund = parsed && this.shop.refunds.get(parsed.id);
    return refund && this.shop.isVisible(refund) ? refund : undefined;
  }

  private node = (id: string) => {
    const parsed = parseGid(id);
    if (!parsed) return null;
    if (parsed.type === "Refund") {
      const refund = this.visibleRefund(id);
      return refund ? this.views.refund(refund) : null;
    }
    if (parsed.type === "Order") {
      const order = this.shop.orders.get(parsed.id);
      return order ? this.views.order(order) : null;
    }
    if (parsed.type === "OrderTransaction") {
      const transaction = this.shop.transactions.get(parsed.id);
      return transaction ? this.views.transaction(transaction) : null;
    }
    return null;
  };

  private root() {
    const shop = this.shop;
    return {
      node: ({ id }: { id: string }) => this.node(id),
      nodes: ({ ids }: { ids: string[] }) => {
        if (ids.length > 250) throw new Error("The input array size of 251 is greater than the maximum allowed of 250.");
        return ids.map(this.node);
      },
      refund: ({ id }: { id: string }) => {
        const refund = this.visibleRefund(id);
        return refund ? this.views.refund(refund) : null;
      },
      order: ({ id }: { id: string }) => this.node(id)?.__typename === "Order" ? this.node(id) : null,
      orders: (args: { first?: number; after?: string; last?: number; before?: string; query?: string; reverse?: boolean; sortKey?: string }) => {
        const matches = [...shop.orders.values()].filter(orderFilter(args.query));
        const key = args.sortKey === "UPDATED_AT" ? (o: { updatedAt: Date }) => o.updatedAt.getTime() : args.sortKey === "CREATED_AT" ? (o: { createdAt: Date }) => o.createdAt.getTime() : null;
        matches.sort(key ? (a, b) => key(a) - key(b) || Number(a.id - b.id) : (a, b) => Number(a.id - b.id));
        return connection(matches, args, this.views.order);
      },
      shop: () => ({ __typename: "Shop", id: gid("Shop", 1n), name: shop.name, myshopifyDomain: shop.domain, currencyCode: shop.currency }),
      refundCreate: ({ input }: { input: RefundInput }) => this.refundCreate(input),
    };
  }

  private refundCreate(input: RefundInput) {
    this.stats.refundCreateCalls++;
    const orderId = parseGid(input.orderId, "Order")?.id;
    const order = orderId === undefined ? undefined : this.shop.orders.get(orderId);
    const userError = (field: string[], message: string) => ({ order: null, refund: null, userErrors: [{ field, message }] });
    if (!order) return userError(["orderId"], "Order does not exist");
    if (this.nextRefundCreateError) {
      const message = this.nextRefundCreateError;
      this.nextRefundCreateError = null;
      return userError(["transactions"], message);
    }
    const transactions = input.transactions ?? [];
    let amountMinor = 0n;
    try {
      for (const t of transactions) amountMinor += parseMinor(t.amount, order.currency);
    } catch {
      return userError(["transactions", "0", "amount"], "Amount is invalid");
    }
    if (amountMinor > this.shop.refundableMinor(order) && !input.allowOverRefunding) {
      return userError(["transactions"], `Refund amount $${restDecimal(amountMinor, order.currency)} is greater than net payment received $${restDecimal(this.shop.refundableMinor(order), order.currency)}`);
    }
    const refund = this.shop.createRefund(order.id, { amount: restDecimal(amountMinor, order.currency), note: input.note ?? null });
    this.onRefundCreated?.(refund);
    return { order: this.views.order(order), refund: this.views.refund(refund), userErrors: [] };
  }
}

interface RefundInput {
  orderId: string;
  note?: string | null;
  notify?: boolean | null;
  transactions?: { amount: string; gateway: string; kind: string; orderId: string; parentId?: string | null }[] | null;
  allowOverRefunding?: boolean | null;
}
