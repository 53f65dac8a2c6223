import type { AdminMutations, AdminQueries } from "@shopify/admin-api-client";
import type { SharedBuckets } from "./shared-bucket.server";
import { ThrottleGate } from "./throttle";
import { TransportError, type AdminResponse, type QueryCost, type ShopGraphql, type ShopifyGraphqlError } from "./transport";

type AdminOperations = AdminQueries & AdminMutations;
export type AdminOperation = keyof AdminOperations & string;
export type OperationData<Q extends AdminOperation> = AdminOperations[Q]["return"];
export type OperationVariables<Q extends AdminOperation> = AdminOperations[Q]["variables"];

/**
 * Why Shopify gave no usable answer, by what Shopify said, never by matching message text:
 * - `deferred`: not sent, the shop's bucket needs `retryAfterMs` to refill;
 * - `throttled`: THROTTLED or HTTP 429, Shopify ran nothing;
 * - `graphql`: an `errors` answer Shopify gave instead of running the operation (code from `extensions.code`);
 * - `unavailable`: HTTP 5xx, a reset or a timeout: a mutation may or may not have run;
 * - `rejected`: another HTTP 4xx (access token, not found);
 * - `session`: the shop has no offline session;
 * - `malformed`: an answer without the data the document asks for.
 */
export type AdminFailureKind = "deferred" | "throttled" | "graphql" | "unavailable" | "rejected" | "session" | "malformed";

export interface AdminFailure {
  ok: false;
  kind: AdminFailureKind;
  /** Shopify's error code (THROTTLED, ACCESS_DENIED, IDEMPOTENCY_…), the HTTP status, or the kind. */
  code: string;
  message: string;
  retryAfterMs: number;
  apiVersion: string | null;
}

export interface AdminSuccess<T> {
  ok: true;
  data: T;
  /** Errors Shopify attached to single fields (`path` set), whose value it answered as null. */
  fieldErrors: ShopifyGraphqlError[];
  cost?: QueryCost;
  apiVersion: string | null;
}

export type AdminResult<T> = AdminSuccess<T> | AdminFailure;

export interface GatewayStats {
  requests: number;
  /** Requests by the operation's name (RefundReadback, OrderExposure…): what each capability costs. */
  byOperation: Record<string, number>;
  requestedCost: number;
  throttled: number;
  errors: number;
}

/** Waits this long at most before a request; a longer wait is handed back as a reschedule. */
const MAX_INLINE_WAIT_MS = 5_000;

const failure = (kind: AdminFailureKind, code: string, message: string, retryAfterMs = 0, apiVersion: string | null = null): AdminFailure => ({
  ok: false,
  kind,
  code,
  message,
  retryAfterMs,
  apiVersion,
});

/** A field error nulls one field; an error without a path (or on the root field) means nothing ran. */
function isFieldError(error: ShopifyGraphqlError): boolean {
  return Array.isArray(error.path) && error.path.length >= 2;
}

function classifyAnswer<T>(answer: AdminResponse): AdminResult<T> {
  const errors = answer.errors ?? [];
  if (errors.length && !(answer.data && errors.every(isFieldError))) {
    const code = errors[0].extensions?.code ?? "GRAPHQL_ERROR";
    return failure(code === "THROTTLED" ? "throttled" : "graphql", code, `GraphQL ${code}: ${errors[0].message}`, 0, answer.apiVersion);
  }
  if (!answer.data) return failure("malformed", "NO_DATA", "malformed response: no data", 5_000, answer.apiVersion);
  return { ok: true, data: answer.data as T, fieldErrors: errors, cost: answer.extensions?.cost, apiVersion: answer.apiVersion };
}

function classifyThrown(error: unknown): AdminFailure {
  if (error instanceof TransportError) {
    if (error.kind === "session") return failure("session", "NO_SESSION", error.message, 60_000);
    if (error.status === 429) return failure("throttled", "429", error.message, error.retryAfterMs ?? 0);
    // Only a 4xx is Shopify refusing the request. A 2xx whose body was cut or unreadable is an
    // answer that did not arrive (the request may have run): it was taken for a refusal and waited
    // a minute, which held the soak's last verdicts 60 s after Shopify was well again.
    if (error.kind === "http" && error.status !== undefined && error.status >= 400 && error.status < 500)
      return failure("rejected", String(error.status), error.message, 60_000);
    return failure("unavailable", error.status ? String(error.status) : error.kind === "timeout" ? "TIMEOUT" : "NETWORK", error.message);
  }
  return failure("unavailable", "NETWORK", `request failed: ${(error as Error)?.message ?? String(error)}`);
}

/**
 * The one door to the Admin API: every request goes through the shop's throttle gate (Shopify's
 * libraries do not pace requests for us), is typed by its document, and comes back classified.
 */
export class ShopifyGateway {
  private readonly gates = new Map<string, ThrottleGate>();
  /** What Shopify last charged per item of a batch, per shop and document (learned from answers). */
  readonly learnedCost = new Map<string, number>();
  readonly stats: GatewayStats = { requests: 0, byOperation: {}, requestedCost: 0, throttled: 0, errors: 0 };

  /**
   * `nowMs` and `sleep` are the bucket's clock: real time by default, because Shopify's bucket
   * refills in real time, whatever clock judges the contract (a test's, a tool's). The bench
   * passes one virtual clock for both. With `buckets`, every process of the app spends each shop's
   * bucket through one shared count (the worker's and the app's gateways do); without, this
   * process's own view of it decides.
   */
  constructor(
    private readonly graphqlFor: (shop: string) => Promise<ShopGraphql>,
    private readonly nowMs: () => number = () => Date.now(),
    readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    private readonly buckets?: SharedBuckets,
  ) {}

  /** A gateway on real time whose calls spend each shop's bucket through the count every process of the app shares. */
  static sharing(graphqlFor: (shop: string) => Promise<ShopGraphql>, buckets: SharedBuckets): ShopifyGateway {
    return new ShopifyGateway(graphqlFor, undefined, undefined, buckets);
  }

  gate(shop: string): ThrottleGate {
    let gate = this.gates.get(shop);
    if (!gate) this.gates.set(shop, (gate = new ThrottleGate()));
    return gate;
  }

  /**
   * One request within the shop's rate limit: waits for the bucket (up to 5 s; longer is handed
   * back as `deferred`), learns the bucket from every answer. With `waitThrottled`, THROTTLED and
   * 429 answers are waited out and sent again (Shopify ran nothing, so this is safe even for a
   * mutation); an unavailable answer never is, because the request may have run.
   */
  async request<Q extends AdminOperation>(
    shop: string,
    query: Q,
    variables: OperationVariables<Q>,
    estimatedCost: number,
    options: { waitThrottled?: boolean } = {},
  ): Promise<AdminResult<OperationData<Q>>> {
    for (let attempt = 0; ; attempt++) {
      const answer = await this.requestOnce<OperationData<Q>>(shop, query, variables as Record<string, unknown>, estimatedCost);
      if (!options.waitThrottled || answer.ok || answer.kind !== "throttled" || attempt >= 2 || answer.retryAfterMs > MAX_INLINE_WAIT_MS) return answer;
      await this.sleep(Math.max(answer.retryAfterMs, 1_000));
    }
  }

  /** Milliseconds until a request of this cost fits in the shop's bucket, as far as we know it. */
  waitMs(shop: string, cost: number): number {
    return this.gate(shop).waitMs(cost, this.nowMs());
  }

  /**
   * Waits until the request's points are in the bucket and takes them: how many it took from the
   * shared count (0 when nothing is known of the bucket yet), or a failure when that is not now or soon.
   */
  private async takeFromBucket(shop: string, gate: ThrottleGate, cost: number): Promise<AdminFailure | { reserved: number }> {
    const deferred = (ms: number) => failure("deferred", "BUCKET_EMPTY", "waiting for the shop's rate limit bucket to refill", ms);
    if (!this.buckets) {
      const wait = gate.waitMs(cost, this.nowMs());
      if (wait > MAX_INLINE_WAIT_MS) return deferred(wait);
      if (wait > 0) await this.sleep(wait);
      gate.reserve(cost, this.nowMs());
      return { reserved: 0 };
    }
    for (let waited = 0; ;) {
      let taken;
      try {
        taken = await this.buckets.reserve(shop, cost, this.nowMs());
      } catch (error) {
        return failure("deferred", "BUCKET_UNKNOWN", `the shared rate limit bucket could not be read: ${(error as Error).message}`, 1_000);
      }
      // Nothing known of the shop's bucket yet (its first request from any process): send, and learn it from the answer.
      if (taken.reserved || taken.waitMs === 0) {
        gate.reserve(cost, this.nowMs());
        return { reserved: taken.reserved ? cost : 0 };
      }
      if (waited + taken.waitMs > MAX_INLINE_WAIT_MS) return deferred(taken.waitMs);
      await this.sleep(taken.waitMs);
      waited += taken.waitMs;
    }
  }

  private async requestOnce<T>(shop: string, query: string, variables: Record<string, unknown>, estimatedCost: number): Promise<AdminResult<T>> {
    let graphql: ShopGraphql;
    try {
      graphql = await this.graphqlFor(shop);
    } catch (error) {
      return classifyThrown(new TransportError("session", `no offline session for ${shop}: ${(error as Error).message}`));
    }
    const gate = this.gate(shop);
    const taken = await this.takeFromBucket(shop, gate, estimatedCost);
    if ("ok" in taken) return taken;
    this.stats.requests++;
    const operation = /(?:query|mutation)\s+(\w+)/.exec(query)?.[1] ?? "anonymous";
    this.stats.byOperation[operation] = (this.stats.byOperation[operation] ?? 0) + 1;
    let result: AdminResult<T>;
    let cost: QueryCost | undefined;
    let mayStillArrive = false;
    try {
      const answer = await graphql(query, variables);
      cost = answer.extensions?.cost;
      gate.observe(cost, this.nowMs());
      this.stats.requestedCost += cost?.requestedQueryCost ?? 0;
      result = classifyAnswer<T>(answer);
    } catch (error) {
      result = classifyThrown(error);
      mayStillArrive = error instanceof TransportError && error.kind === "timeout";
    }
    // What the reservation did not cost: THROTTLED ran nothing; a success costs what Shopify kept of
    // its requested cost (the actual cost, never more than requested), which can exceed the estimate:
    // then `unused` is negative and the shared count is charged the rest.
    const charged = Math.min(cost?.requestedQueryCost ?? estimatedCost, cost?.actualQueryCost ?? estimatedCost);
    const unused = result.ok ? estimatedCost - charged : result.kind === "throttled" ? estimatedCost : 0;
    await this.buckets?.answered(shop, { reserved: taken.reserved, unused, cost, mayStillArrive }, this.nowMs()).catch(() => undefined);
    if (result.ok) return result;
    if (result.kind === "throttled") {
      this.stats.throttled++;
      return { ...result, retryAfterMs: Math.max(result.retryAfterMs, 1_000, gate.waitMs(estimatedCost, this.nowMs())) };
    }
    this.stats.errors++;
    return result;
  }
}
