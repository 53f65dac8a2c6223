import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import { getOperationAST, parse } from "graphql";
import { AdminApi } from "./admin-api";
import { FakeFlow } from "./flow";
import { FakeShop } from "./shop";
import { verifySessionToken } from "./session-token";
import { associatedUser, type FakeStaffMember, type NewStaffMember } from "./staff";
import { toWebRequest } from "./node-request";
import { Gate } from "./gate";
import { ADMIN_API_VERSION, resolveApiVersion } from "./versions";
import { bulkFinishBody, disputeWebhookBody, newDelivery, refundWebhookBody, sendDelivery, shopWebhookBody, TOPIC_PATHS } from "./webhooks";

export type Fault = (
  | { kind: "throttled" }
  | { kind: "http"; status: number; retryAfter?: string }
  | { kind: "slow"; ms: number }
  /** Answered once the test opens `heldAnswers` (charged on arrival like any other). */
  | { kind: "held" }
  /** Still on its way: reaches Shopify (and is charged) only once the test opens `requestsOnTheWay`. */
  | { kind: "on_the_way" }
  | { kind: "truncated" }
  /** Shopify runs the request to the end (a refund is created, its webhook sent), then the connection drops without an answer. */
  | { kind: "lost_answer" }
  /**
   * A field Shopify could not resolve, as GraphQL answers one that can be null: null in `data` at
   * `path` (which must be there), and an error with that path and `code`.
   */
  | { kind: "field_error"; path: (string | number)[]; code: string }
) & {
  /** Only a request of this operation type meets the fault; until one comes, the queue waits behind it. Default: any request. */
  operation?: "query" | "mutation";
  /** Only a request of the operation of this name (`query PaymentsLedger`) meets the fault; the queue waits behind it too. */
  operationName?: string;
};

function operationOf(body: Record<string, unknown>): { type?: "query" | "mutation" | "subscription"; name?: string } {
  try {
    const operation = getOperationAST(parse(String(body.query)), typeof body.operationName === "string" ? body.operationName : undefined);
    return { type: operation?.operation, name: operation?.name?.value };
  } catch {
    return {};
  }
}

/** The answer with the field at `path` null and Shopify's error for it, as graphql-js answers a nullable field that failed. */
function withFieldError(result: Record<string, unknown>, path: (string | number)[], code: string): Record<string, unknown> {
  let parent = result.data as Record<string | number, unknown> | null | undefined;
  for (const key of path.slice(0, -1)) parent = parent?.[key] as Record<string | number, unknown> | null | undefined;
  const last = path[path.length - 1];
  if (!parent || !(last in parent)) throw new Error(`field_error fault: the answer has no field at ${path.join(".")}`);
  parent[last] = null;
  const error = { message: `Internal error resolving ${path.join(".")}`, locations: [], path, extensions: { code } };
  return { ...result, errors: [...((result.errors as unknown[] | undefined) ?? []), error] };
}

/**
 * Thrown by `handle()` for a `lost_answer` fault, after the request has run: there is no
 * response. Over HTTP (`listen()`) the socket is reset instead: the client's fetch fails with
 * ECONNRESET.
 */
export class LostAnswerError extends Error {
  constructor() {
    super("the connection was closed after the request ran, without an answer (lost_answer fault)");
    this.name = "LostAnswerError";
  }
}

export interface AppCredentials {
  apiKey: string;
  secret: string;
  scopes: string;
}

/** The app's name in its listing (shopify.app.toml's `name`): how Shopify names it to other apps (App.title). */
export const APP_TITLE = "Refund Verifier";

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json", ...headers } });

/** The `requested_token_type` with which a token exchange asks for a user's online token (the offline one's ends in offline-access-token). */
const ONLINE_ACCESS_TOKEN = "urn:shopify:params:oauth:token-type:online-access-token";
/** An online token lasts a day, less the second Shopify's answers take off (its documented `expires_in`). */
const ONLINE_TOKEN_SECONDS = 86399;

/** The user a session token's `sub` names: Shopify's user id, "42" (or its gid); undefined for anything else. */
const userIdOfSubject = (sub: unknown) => (typeof sub === "string" ? /^(?:gid:\/\/shopify\/User\/)?([1-9]\d*)$/.exec(sub)?.[1] : undefined);

/**
 * A simulated Shopify for any number of shops: the Admin GraphQL API at
 * /admin/api/{version}/graphql.json (SUPPORTED_API_VERSIONS; an older version falls forward to the
 * oldest supported one) and token exchange at /admin/oauth/access_token. Requests carry the shop
 * in Host or X-Forwarded-Host (the app's SHOPIFY_ADMIN_API_ORIGIN routing sets it).
 *
 * Token exchange answers an offline-token request with the shop's token, and an online-token
 * request with a token for the session token's user and that user as the shop's staff knows them
 * (`associated_user`, fake-shopify/staff.ts). A new shop's staff is one person, user 42 (the `sub`
 * of every session token minted without another), its account owner; `addStaff` adds people. A
 * user the fake does not know yet joins the staff when first exchanged for, as a member who is not
 * the owner, with a name generated from their id: tests that act as users 101 or 303 need no setup.
 */
export class FakeShopify {
  readonly shops = new Map<string, { shop: FakeShop; api: AdminApi }>();
  private readonly tokens = new Map<string, string>();
  private readonly faults: Fault[] = [];
  /** Where answers of `held` faults wait: shut while any is held; `heldAnswers.open()` sends them; `.held` counts them. */
  readonly heldAnswers = new Gate();
  /** Where requests of `on_the_way` faults wait before they arrive: shut while any is held; `.held` counts them. */
  readonly requestsOnTheWay = new Gate();
  private server?: Server;
  /** The fake's own origin once it listens: bulk results are served from it. */
  private baseUrl?: string;
  /** Shopify's clock: when orders, refunds, bulk operations and webhooks happen. A test sets it to its own clock. */
  now: () => Date = () => new Date();
  /**
   * The leaky bucket's clock: the bucket refills in real time, as the app's gateway waits for it
   * in real time. Only a test of the bucket itself, or the bench's virtual time, moves it.
   */
  bucketNowMs: () => number = () => Date.now();
  /**
   * Where Shopify sends webhooks: set it and refunds made through refundCreate announce themselves,
   * and disputes (created, updated, evidence sent) to a shop that granted read_shopify_payments_disputes.
   */
  webhookTarget?: { appUrl: string };
  /** The webhook subscription's API version: it names deliveries' X-Shopify-API-Version (falling forward like requests). */
  webhookApiVersion: string = ADMIN_API_VERSION;
  private readonly inFlight = new Set<Promise<unknown>>();
  /** Shopify Flow: the app's triggers (from extensions/), the calls it accepted, the workflows merchants turned on. */
  readonly flow = new FakeFlow();

  constructor(
    readonly app: AppCredentials,
    private readonly bucket: { maximumAvailable?: number; restoreRate?: number } = {},
  ) {}

  addShop(domain: string, currency = "USD"): FakeShop {
    const shop = new FakeShop(domain, currency, () => this.now());
    const api = new AdminApi(shop, { ...this.bucket, nowMs: () => this.bucketNowMs() });
    api.flow = this.flow;
    // The app the tests and the demo run is installed in the shop under its listing's name, with its own API key.
    api.callingApp = shop.app(APP_TITLE, this.app.apiKey);
    api.onRefundCreated = (refund) => this.sendWebhook(domain, "refunds/create", refundWebhookBody(shop, refund));
    api.bulkResultUrl = (token) => (this.baseUrl ? `${this.baseUrl}/bulk-results/${encodeURIComponent(domain)}/${token}.jsonl` : null);
    api.bulk.onFinished = (operation) => this.sendWebhook(domain, "bulk_operations/finish", bulkFinishBody(operation));
    // The disputes topics "require the read_shopify_payments_disputes scope" (the schema's WebhookSubscriptionTopic): none without it.
    shop.onDisputeEvent = (topic, dispute) => {
      if (shop.hasScope("read_shopify_payments_disputes")) this.sendWebhook(domain, topic, disputeWebhookBody(shop, dispute));
    };
    this.shops.set(domain, { shop, api });
    return shop;
  }

  /** Sends a webhook of the shop's subscriptions to the app, when it has a target. */
  private sendWebhook(domain: string, topic: string, body: string): void {
    if (!this.webhookTarget) return;
    const delivery = newDelivery(topic, domain, body, this.now(), resolveApiVersion(this.webhookApiVersion) ?? ADMIN_API_VERSION);
    const sent = sendDelivery(this.webhookTarget.appUrl, TOPIC_PATHS[topic], delivery, this.app.secret).catch(() => undefined);
    this.inFlight.add(sent);
    void sent.finally(() => this.inFlight.delete(sent));
  }

  /** A merchant of `domain` turns on (or off) a workflow that starts with the app's trigger; Flow tells the app. */
  setFlowWorkflow(domain: string, handle: string, on: boolean): Promise<Response> {
    if (!this.webhookTarget) throw new Error("setFlowWorkflow: set webhookTarget to the app's URL first");
    return this.flow.setWorkflow(domain, handle, on, { appUrl: this.webhookTarget.appUrl, secret: this.app.secret }, this.now());
  }

  /** Sends what Shopify's clock has made due (a bulk operation finished), then waits for the webhooks it has started sending. */
  async flushWebhooks(): Promise<void> {
    for (const { api } of this.shops.values()) api.bulk.advance();
    await Promise.all([...this.inFlight]);
  }

  shop(domain: string): FakeShop {
    const entry = this.shops.get(domain);
    if (!entry) throw new Error(`no fake shop ${domain}`);
    return entry.shop;
  }

  api(domain: string): AdminApi {
    this.shop(domain);
    return this.shops.get(domain)!.api;
  }

  /** Adds a person to the shop's staff, or changes one (a rename; `accountOwner: true` transfers the shop's ownership to them). */
  addStaff(domain: string, member: NewStaffMember): FakeStaffMember {
    return this.shop(domain).staff.add(member);
  }

  /** Accepts an access token the app already holds (a session stored by a test) as if the shop had issued it. */
  grantAccessToken(domain: string, token: string): void {
    this.tokens.set(token, domain);
  }

  revokeAccessTokens(domain: string): void {
    for (const [token, shop] of this.tokens) if (shop === domain) this.tokens.delete(token);
  }

  /** The merchant removes the app: its tokens stop working at once, then app/uninstalled is sent. */
  async uninstall(domain: string): Promise<void> {
    this.revokeAccessTokens(domain);
    this.sendWebhook(domain, "app/uninstalled", shopWebhookBody(this.shop(domain)));
    await this.flushWebhooks();
  }

  /** The next `times` Admin API requests (of `fault.operation`, when set) fail this way, in order. */
  inject(fault: Fault, times = 1): void {
    for (let i = 0; i < times; i++) this.faults.push(fault);
  }

  pendingFaults(): number {
    return this.faults.length;
  }

  /** Shopify no longer remembers the `@idempotent` keys of this shop (of every shop without `domain`). */
  forgetIdempotencyKeys(domain?: string): void {
    for (const [name, { api }] of this.shops) if (domain === undefined || name === domain) api.forgetIdempotencyKeys();
  }

  /** `clientGone` says whether the client has given up on this request (over HTTP: its connection closed). */
  async handle(request: Request, clientGone?: () => boolean): Promise<Response> {
    const url = new URL(request.url);
    const domain = (request.headers.get("x-forwarded-host") ?? url.hostname).toLowerCase();
    const entry = this.shops.get(domain);
    if (!entry) return json({ errors: "Not Found" }, 404);
    entry.api.stats.requests++;
    if (request.method === "POST" && url.pathname === "/admin/oauth/access_token") return this.accessToken(domain, request);
    const graphqlPath = /^\/admin\/api\/([^/]+)\/graphql\.json$/.exec(url.pathname);
    if (!graphqlPath || request.method !== "POST") return json({ errors: "Not Found" }, 404);
    const apiVersion = resolveApiVersion(graphqlPath[1]);
    if (!apiVersion) return json({ errors: "Not Found" }, 404);
    // Every answer of a version says which version answered: the requested one, or the one it fell forward to.
    const versioned = { "X-Shopify-API-Version": apiVersion };
    if (this.tokens.get(request.headers.get("x-shopify-access-token") ?? "") !== domain) {
      return json({ errors: "[API] Invalid API key or access token (unrecognized login or wrong password)" }, 401, versioned);
    }
    let body: Record<string, unknown>;
    try {
      body = (await request.json()) as Record<string, unknown>;
    } catch {
      return json({ errors: "Bad Request" }, 400, versioned);
    }
    const next = this.faults[0];
    const operation = operationOf(body);
    const meets = next && (!next.operation || next.operation === operation.type) && (!next.operationName || next.operationName === operation.name);
    const fault = meets ? this.faults.shift() : undefined;
    if (fault?.kind === "http") {
      return json(
        {
          errors:
            fault.status === 429
              ? "Exceeded 2 calls per second for api client. Reduce request rates to resume uninterrupted service."
              : "Internal Server Error",
        },
        fault.status,
        { ...versioned, ...(fault.retryAfter ? { "Retry-After": fault.retryAfter } : {}) },
      );
    }
    if (fault?.kind === "throttled") {
      entry.api.stats.injectedThrottles++;
      return json(
        {
          errors: [{ message: "Throttled", extensions: { code: "THROTTLED", documentation: "https://shopify.dev/api/usage/rate-limits" } }],
          extensions: {
            cost: {
              requestedQueryCost: 0,
              actualQueryCost: null,
              throttleStatus: { maximumAvailable: entry.api.bucket.maximumAvailable, currentlyAvailable: 0, restoreRate: entry.api.bucket.restoreRate },
            },
          },
        },
        200,
        versioned,
      );
    }
    if (fault?.kind === "on_the_way") {
      this.requestsOnTheWay.close();
      await this.requestsOnTheWay.pass();
    }
    // Shopify charges the bucket when the request arrives (its cost is computed before it runs): a slow answer was charged at once.
    const result = await entry.api.graphql(body, { apiVersion, clientGone });
    if (fault?.kind === "slow") await new Promise((resolve) => setTimeout(resolve, fault.ms));
    if (fault?.kind === "held") {
      this.heldAnswers.close();
      await this.heldAnswers.pass();
    }
    if (fault?.kind === "lost_answer") throw new LostAnswerError();
    if (fault?.kind === "field_error") return json(withFieldError(result as Record<string, unknown>, fault.path, fault.code), 200, versioned);
    if (fault?.kind === "truncated") {
      const text = JSON.stringify(result);
      return new Response(text.slice(0, Math.floor(text.length / 2)), { headers: { "Content-Type": "application/json", ...versioned } });
    }
    return json(result, 200, versioned);
  }

  private async accessToken(domain: string, request: Request): Promise<Response> {
    const body = (await request.json().catch(() => ({}))) as Record<string, string>;
    if (body.client_id !== this.app.apiKey || body.client_secret !== this.app.secret) {
      return json({ error: "invalid_client", error_description: "Client credentials are invalid" }, 401);
    }
    if (body.grant_type === "urn:ietf:params:oauth:grant-type:token-exchange") {
      const claims = verifySessionToken(body.subject_token ?? "", this.app.secret);
      if (!claims || claims.dest !== `https://${domain}`) return json({ error: "invalid_subject_token" }, 400);
      if (body.requested_token_type === ONLINE_ACCESS_TOKEN) {
        const userId = userIdOfSubject(claims.sub);
        return userId ? this.onlineAccessToken(domain, userId) : json({ error: "invalid_subject_token" }, 400);
      }
    } else if (body.grant_type !== "refresh_token") {
      return json({ error: "unsupported_grant_type" }, 400);
    }
    const token = `shpat_${randomBytes(16).toString("hex")}`;
    this.grantAccessToken(domain, token);
    const expiring = body.expiring === "1" || body.grant_type === "refresh_token";
    return json({
      access_token: token,
      scope: this.app.scopes,
      ...(expiring ? { expires_in: 3600, refresh_token: `shprt_${randomBytes(16).toString("hex")}`, refresh_token_expires_in: 7_776_000 } : {}),
    });
  }

  /** A token for one person of the shop's staff (`shpua_`), with who they are; it neither expires in an hour nor refreshes: `expiring` is for offline tokens. */
  private onlineAccessToken(domain: string, userId: string): Response {
    const token = `shpua_${randomBytes(16).toString("hex")}`;
    this.grantAccessToken(domain, token);
    return json({
      access_token: token,
      scope: this.app.scopes,
      expires_in: ONLINE_TOKEN_SECONDS,
      associated_user_scope: this.app.scopes,
      associated_user: associatedUser(this.shop(domain).staff.memberSigningIn(userId)),
    });
  }

  /** Serves the fake over HTTP on loopback; `extra` answers first (the demo's simulated admin pages). */
  async listen(port = 0, extra?: (request: Request) => Promise<Response | undefined>): Promise<string> {
    this.server = createServer(async (req, res) => {
      if (req.method === "GET" && req.url?.startsWith("/bulk-results/")) return this.serveBulkResult(req, res);
      const request = toWebRequest(req);
      let closed = false;
      res.once("close", () => (closed = true));
      const respond = async () => (await extra?.(request)) ?? this.handle(request, () => closed);
      let response: Response;
      try {
        response = await respond();
      } catch (error) {
        // A TCP reset, as when a proxy drops the connection: the client gets ECONNRESET, not an answer.
        if (error instanceof LostAnswerError) return void req.socket.resetAndDestroy();
        response = json({ errors: (error as Error).message }, 500);
      }
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(Buffer.from(await response.arrayBuffer()));
    });
    await new Promise<void>((resolve) => this.server!.listen(port, "127.0.0.1", resolve));
    this.baseUrl = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.baseUrl;
  }

  /**
   * A bulk result's JSONL, written line by line as a storage bucket streams it; 404 once expired.
   * `Range: bytes=N-` is answered 206 from byte N (416 past the end) where the store honours it;
   * the store's faults (a cut tail, a slow pace) are FakeBulkOperations' `store`.
   */
  private serveBulkResult(req: IncomingMessage, res: ServerResponse): void {
    const match = /^\/bulk-results\/([^/]+)\/([0-9a-f]+)\.jsonl$/.exec(req.url ?? "");
    const bulk = match ? this.shops.get(decodeURIComponent(match[1]))?.api.bulk : undefined;
    const lines = match && bulk ? bulk.file(match[2]) : null;
    if (!bulk || !lines) {
      res.writeHead(404, { "Content-Type": "application/xml" });
      return void res.end("<Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message></Error>");
    }
    const file = Buffer.from(lines.map((line) => `${line}\n`).join(""));
    const range = bulk.store.ranges ? /^bytes=(\d+)-$/.exec(req.headers.range ?? "") : null;
    const from = range ? Number(range[1]) : 0;
    if (range) bulk.stats.rangeDownloads++;
    if (from >= file.length && range) {
      res.writeHead(416, { "Content-Range": `bytes */${file.length}` });
      return void res.end();
    }
    let body = file.subarray(from);
    if (bulk.store.cutNext > 0) {
      bulk.store.cutNext--;
      const cut = Math.floor((body.length * 4) / 5);
      body = body.subarray(0, bulk.store.cutBeforeNewline ? Math.max(body.lastIndexOf(0x0a, cut), 0) : cut);
    }
    res.writeHead(range ? 206 : 200, {
      "Content-Type": "application/jsonl",
      ...(range ? { "Content-Range": `bytes ${from}-${file.length - 1}/${file.length}` } : {}),
    });
    // Chunked, without a length: a cut file ends as cleanly as a whole one.
    const pace = bulk.store.linesPerSecond;
    const perWrite = pace ? Math.max(1, Math.round(pace / 50)) : Infinity;
    let at = 0;
    const write = () => {
      while (at < body.length) {
        let end = at;
        for (let n = 0; n < perWrite && end < body.length; n++) end = body.indexOf(0x0a, end) === -1 ? body.length : body.indexOf(0x0a, end) + 1;
        const more = res.write(body.subarray(at, end));
        at = end;
        if (res.destroyed) return;
        if (pace) return void setTimeout(write, (perWrite * 1000) / pace);
        if (!more) return void res.once("drain", write);
      }
      res.end();
    };
    write();
  }

  async close(): Promise<void> {
    this.heldAnswers.open();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
