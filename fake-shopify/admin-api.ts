import { execute, getOperationAST, Kind, parse, validate, type FragmentDefinitionNode, type GraphQLError, type GraphQLResolveInfo } from "graphql";
import type { FakeFlow } from "./flow";
import { Gate } from "./gate";
import { FakeBulkOperations } from "./bulk";
import { costCountingResolver, requestedCost } from "./cost";
import { disputeEvidenceUpdate, type EvidenceInput } from "./dispute-evidence";
import { disputeByEvidenceGid, disputeByGid, disputesConnection, readableDispute, readableEvidence } from "./dispute-views";
import { shopifyPaymentsAccount } from "./payments-views";
import { IdempotencyKeys, refundCreate, type RefundCreateHost, type RefundInput } from "./refund-create";
import type { FakeApp, FakeRefund, FakeShop } from "./shop";
import { accessDenied, connection, gid, parseGid, Views } from "./views";
import { ADMIN_API_VERSION, adminSchema } from "./versions";

export { ADMIN_API_VERSION, adminSchema, SUPPORTED_API_VERSIONS } from "./versions";
export { requestedQueryCost } from "./cost";
export const MAX_QUERY_COST = 1000;

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
  /** What the requests actually cost (the bucket is refunded the rest): what a steady stream of them drains. */
  actualCost: number;
  /** Every refundCreate field executed, whatever its answer (refused, replayed, created). */
  refundCreateCalls: number;
  /** Refunds refundCreate actually created: a replayed idempotency key adds none. */
  refundsCreated: number;
  /** Requests charged after their client had given up on them (its timeout): it could no longer count them. */
  chargedAfterClientLeft: number;
  /** Requests executed, by operation name (OrderNames: 2). */
  byOperation: Record<string, number>;
}

type JsonBody = Record<string, unknown>;

/** What the executed request needs: the version that answers it decides refundCreate's idempotency rule. */
export interface RequestContext {
  apiVersion: string;
}

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

export class AdminApi implements RefundCreateHost {
  readonly views: Views;
  readonly bucket: Bucket;
  readonly stats: AdminApiStats = {
    requests: 0,
    graphqlRequests: 0,
    throttled: 0,
    injectedThrottles: 0,
    requestedCost: 0,
    actualCost: 0,
    refundCreateCalls: 0,
    refundsCreated: 0,
    chargedAfterClientLeft: 0,
    byOperation: {},
  };
  /** Each request that found the bucket short of its cost: when (the bucket's clock), its cost, what the bucket held. */
  readonly throttleLog: { atMs: number; cost: number; available: number }[] = [];
  /**
   * The last 1,000 charges to the bucket, to explain a THROTTLED: when, what, what was left, and
   * whether the client had already given up on the request (it was charged all the same, as at Shopify).
   */
  readonly recentCharges: { atMs: number; cost: number; operation: string; left: number; clientGone: boolean }[] = [];
  /** The next refundCreate answers with this user error (as when the order changed since the app checked it). */
  nextRefundCreateError: string | null = null;
  /** Every refundCreate waits at this gate before it creates anything (open unless a test closes it): a second request can arrive meanwhile. */
  readonly refundCreateGate = new Gate();
  /** The shop's remembered `@idempotent` keys. */
  readonly idempotencyKeys = new IdempotencyKeys();
  /** Shopify Flow, shared by every shop of the FakeShopify. */
  flow?: FakeFlow;
  /** Called for every refund refundCreate makes (the FakeShopify sends its refunds/create webhook). */
  onRefundCreated?: (refund: FakeRefund) => void;
  /** The app whose token calls this API (the FakeShopify's app, installed in the shop): the app of the refunds refundCreate makes. */
  callingApp: FakeApp | null = null;
  /** The shop's bulk operations; their result URLs are the FakeShopify's, once it listens. */
  readonly bulk: FakeBulkOperations;
  /** Where a bulk result's JSONL is served (set by the FakeShopify that listens). */
  bulkResultUrl: (token: string) => string | null = () => null;

  /** The bucket's clock (real time unless a test moves it: see FakeShopify.bucketNowMs). */
  private readonly bucketNowMs: () => number;

  constructor(
    readonly shop: FakeShop,
    options: { maximumAvailable?: number; restoreRate?: number; nowMs?: () => number } = {},
  ) {
    this.views = new Views(shop);
    this.bulk = new FakeBulkOperations(shop.now, (token) => this.bulkResultUrl(token));
    this.bucketNowMs = options.nowMs ?? (() => shop.now().getTime());
    const maximumAvailable = options.maximumAvailable ?? 1000;
    this.bucket = { maximumAvailable, restoreRate: options.restoreRate ?? 100, currentlyAvailable: maximumAvailable, updatedAtMs: this.bucketNowMs() };
  }

  /** The bucket is full again, as it is after the shop sent nothing for a while: a test's step instead of a wait. */
  fillBucket(): void {
    this.bucket.currentlyAvailable = this.bucket.maximumAvailable;
    this.bucket.updatedAtMs = this.bucketNowMs();
  }

  /** Shopify no longer remembers any key of this shop: a key sent again runs as new. */
  forgetIdempotencyKeys(): void {
    this.idempotencyKeys.forget();
  }

  private refill(): void {
    const now = this.bucketNowMs();
    const restored = ((now - this.bucket.updatedAtMs) / 1000) * this.bucket.restoreRate;
    this.bucket.currentlyAvailable = Math.min(this.bucket.maximumAvailable, this.bucket.currentlyAvailable + restored);
    this.bucket.updatedAtMs = now;
  }

  private recordCharge(cost: number, operation: string, clientGone: boolean): void {
    if (clientGone) this.stats.chargedAfterClientLeft++;
    this.recentCharges.push({ atMs: this.bucket.updatedAtMs, cost, operation, left: Math.floor(this.bucket.currentlyAvailable), clientGone });
    if (this.recentCharges.length > 1_000) this.recentCharges.shift();
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

  /**
   * Executes one GraphQL request body as Shopify does: validation errors and THROTTLED come back
   * as HTTP 200 with `errors`. The bucket is charged the requested cost; Shopify refunds the
   * difference to the actual cost afterwards, as this fake does (an app that counts the refund, as the shared bucket does, would otherwise see throttles Shopify never sends).
   */
  async graphql(
    body: { query?: unknown; variables?: unknown; operationName?: unknown },
    options: { apiVersion?: string; clientGone?: () => boolean } = {},
  ): Promise<JsonBody> {
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
    const fragments = Object.fromEntries(
      document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]),
    );
    let cost: number;
    try {
      cost = requestedCost(schema, operation, variables, fragments);
    } catch (error) {
      return { errors: graphqlErrors([error as GraphQLError], "argumentLiteralsIncompatible") };
    }
    this.refill();
    if (cost > MAX_QUERY_COST) {
      return {
        errors: [
          {
            message: `Query cost is ${cost}, which exceeds the single query max cost limit (${MAX_QUERY_COST}).`,
            extensions: { code: "MAX_COST_EXCEEDED", cost, maxCost: MAX_QUERY_COST },
          },
        ],
        extensions: this.costExtension(cost, null),
      };
    }
    if (cost > this.bucket.currentlyAvailable) {
      this.stats.throttled++;
      this.throttleLog.push({ atMs: this.bucket.updatedAtMs, cost, available: Math.floor(this.bucket.currentlyAvailable) });
      return {
        errors: [{ message: "Throttled", extensions: { code: "THROTTLED", documentation: "https://shopify.dev/api/usage/rate-limits" } }],
        extensions: this.costExtension(cost, null),
      };
    }
    this.bucket.currentlyAvailable -= cost;
    this.stats.requestedCost += cost;
    const name = operation.name?.value ?? "anonymous";
    this.recordCharge(cost, name, options.clientGone?.() ?? false);
    const counter = { actual: 0 };
    const context: RequestContext = { apiVersion: options.apiVersion ?? ADMIN_API_VERSION };
    this.stats.byOperation[name] = (this.stats.byOperation[name] ?? 0) + 1;
    const result = await execute({
      schema,
      document,
      rootValue: this.root(),
      contextValue: context,
      variableValues: variables,
      operationName: operation.name?.value,
      fieldResolver: costCountingResolver(counter, schema.getMutationType()),
    });
    // "The bucket is refunded the difference between the requested cost and the actual cost"
    // (Shopify's rate-limit guide), before the answer reports what is left.
    this.bucket.currentlyAvailable = Math.min(this.bucket.maximumAvailable, this.bucket.currentlyAvailable + Math.max(0, cost - counter.actual));
    this.stats.actualCost += counter.actual;
    const response: JsonBody = { data: result.data ?? null, extensions: this.costExtension(cost, counter.actual) };
    if (result.errors?.length) response.errors = graphqlErrors(result.errors, "INTERNAL_SERVER_ERROR");
    return response;
  }

  private visibleRefund(id: string) {
    const parsed = parseGid(id, "Refund");
    const refund = parsed && this.shop.refunds.get(parsed.id);
    return refund && this.shop.isVisible(refund) ? refund : undefined;
  }

  /** A refund the app may not read is an error in its place: graphql-js answers null there, with the error's path. */
  private readableRefund(id: string) {
    const refund = this.visibleRefund(id);
    if (!refund) return null;
    return this.shop.deniedRefunds.has(refund.id) ? accessDenied("refund") : this.views.refund(refund);
  }

  private node = (id: string) => {
    const parsed = parseGid(id);
    if (!parsed) return null;
    if (parsed.type === "Refund") return this.readableRefund(id);
    if (parsed.type === "Order") {
      const order = this.shop.orders.get(parsed.id);
      return order ? this.views.order(order) : null;
    }
    if (parsed.type === "BulkOperation") return this.bulk.find(id);
    // A dispute is read by its ShopifyPaymentsDispute gid; an OrderDisputeSummary gid finds nothing here (not confirmed: see DISPUTES-AND-STORE-CREDIT.md).
    if (parsed.type === "ShopifyPaymentsDispute") {
      const dispute = disputeByGid(this.shop, id);
      return dispute ? readableDispute(this.shop, this.views, dispute, "dispute") : null;
    }
    if (parsed.type === "ShopifyPaymentsDisputeEvidence") {
      const dispute = disputeByEvidenceGid(this.shop, id);
      return dispute ? readableEvidence(this.shop, this.views, dispute) : null;
    }
    if (parsed.type === "OrderTransaction") {
      const transaction = this.shop.transactions.get(parsed.id);
      return transaction ? this.views.transaction(transaction) : null;
    }
    return null;
  };

  private root() {
    const shop = this.shop;
    const thrown = <T>(value: T) => {
      if (value instanceof Error) throw value;
      return value;
    };
    return {
      node: ({ id }: { id: string }) => thrown(this.node(id)),
      nodes: ({ ids }: { ids: string[] }) => {
        if (ids.length > 250) throw new Error(`The input array size of ${ids.length} is greater than the maximum allowed of 250.`);
        return ids.map(this.node);
      },
      refund: ({ id }: { id: string }) => thrown(this.readableRefund(id)),
      dispute: ({ id }: { id: string }) => {
        const dispute = disputeByGid(shop, id);
        return dispute ? thrown(readableDispute(shop, this.views, dispute, "dispute")) : null;
      },
      disputes: (args: { first?: number; after?: string; last?: number; before?: string; query?: string; reverse?: boolean }) =>
        disputesConnection(shop, this.views, args, "disputes"),
      disputeEvidence: ({ id }: { id: string }) => {
        const dispute = disputeByEvidenceGid(shop, id);
        return dispute ? thrown(readableEvidence(shop, this.views, dispute)) : null;
      },
      disputeEvidenceUpdate: (args: { id: string; input: EvidenceInput }) => disputeEvidenceUpdate(shop, this.views, args),
      order: ({ id }: { id: string }) => {
        const parsed = parseGid(id, "Order");
        const order = parsed && shop.orders.get(parsed.id);
        return order ? this.views.order(order) : null;
      },
      orders: (args: { first?: number; after?: string; last?: number; before?: string; query?: string; reverse?: boolean; sortKey?: string }) => {
        const matches = [...shop.orders.values()].filter(orderFilter(args.query));
        const key =
          args.sortKey === "UPDATED_AT"
            ? (o: { updatedAt: Date }) => o.updatedAt.getTime()
            : args.sortKey === "CREATED_AT" || args.sortKey === "PROCESSED_AT"
              ? (o: { createdAt: Date }) => o.createdAt.getTime()
              : null;
        matches.sort(key ? (a, b) => key(a) - key(b) || Number(a.id - b.id) : (a, b) => Number(a.id - b.id));
        return connection(matches, args, this.views.order);
      },
      shop: () => ({
        __typename: "Shop",
        id: gid("Shop", 1n),
        name: shop.name,
        myshopifyDomain: shop.domain,
        currencyCode: shop.currency,
        ianaTimezone: shop.ianaTimezone,
      }),
      flowTriggerReceive: (args: { handle?: string | null; payload?: unknown; body?: string | null }) => {
        if (!this.flow) throw new Error("Flow is not available");
        return { userErrors: this.flow.receive(shop.domain, args.handle, args.payload ?? (args.body ? JSON.parse(args.body) : undefined), shop.now()) };
      },
      shopifyPaymentsAccount: () => shopifyPaymentsAccount(shop, this.views),
      // The app's installation on this shop, as the token that asks sees it: the scopes the merchant granted it.
      currentAppInstallation: () => ({
        __typename: "AppInstallation",
        id: gid("AppInstallation", 1n),
        accessScopes: [...shop.grantedScopes].sort().map((handle) => ({ __typename: "AccessScope", handle, description: `The ${handle} access scope.` })),
      }),
      currentBulkOperation: () => this.bulk.current(),
      bulkOperationRunQuery: (args: { query: string; groupObjects: boolean }) =>
        this.bulk.run(adminSchema(), args.query, (document) =>
          Promise.resolve(execute({ schema: adminSchema(), document, rootValue: this.root(), contextValue: { apiVersion: ADMIN_API_VERSION } })),
        ),
      refundCreate: (args: { input: RefundInput }, context: RequestContext, info: GraphQLResolveInfo) =>
        refundCreate(this, args.input, context.apiVersion, info),
    };
  }
}
