import { createServer, type Server } from "node:http";
import { randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import { AdminApi, ADMIN_API_VERSION } from "./admin-api";
import { FakeShop } from "./shop";
import { verifySessionToken } from "./session-token";
import { toWebRequest } from "./node-request";
import { newDelivery, refundWebhookBody, sendDelivery, TOPIC_PATHS } from "./webhooks";

export type Fault =
  | { kind: "throttled" }
  | { kind: "http"; status: number; retryAfter?: string }
  | { kind: "slow"; ms: number }
  | { kind: "truncated" };

export interface AppCredentials {
  apiKey: string;
  secret: string;
  scopes: string;
}

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json", ...headers } });

/**
 * A simulated Shopify for any number of shops: the Admin GraphQL API at
 * /admin/api/2025-07/graphql.json and token exchange at /admin/oauth/access_token. Requests carry
 * the shop in Host or X-Forwarded-Host (the app's SHOPIFY_ADMIN_API_ORIGIN routing sets it).
 */
export class FakeShopify {
  readonly shops = new Map<string, { shop: FakeShop; api: AdminApi }>();
  private readonly tokens = new Map<string, string>();
  private readonly faults: Fault[] = [];
  private server?: Server;
  now: () => Date = () => new Date();
  /** Where Shopify sends webhooks: set it and refunds made through refundCreate announce themselves. */
  webhookTarget?: { appUrl: string };
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(
    readonly app: AppCredentials,
    private readonly bucket: { maximumAvailable?: number; restoreRate?: number } = {},
  ) {}

  addShop(domain: string, currency = "USD"): FakeShop {
    const shop = new FakeShop(domain, currency, () => this.now());
    const api = new AdminApi(shop, this.bucket);
    api.onRefundCreated = (refund) => {
      if (!this.webhookTarget) return;
      const delivery = newDelivery("refunds/create", domain, refundWebhookBody(shop, refund), this.now());
      const sent = sendDelivery(this.webhookTarget.appUrl, TOPIC_PATHS["refunds/create"], delivery, this.app.secret).catch(() => undefined);
      this.inFlight.add(sent);
      void sent.finally(() => this.inFlight.delete(sent));
    };
    this.shops.set(domain, { shop, api });
    return shop;
  }

  /** Waits for the webhooks Shopify has started sending. */
  async flushWebhooks(): Promise<void> {
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

  /** Accepts an access token the app already holds (a session stored by a test) as if the shop had issued it. */
  grantAccessToken(domain: string, token: string): void {
    this.tokens.set(token, domain);
  }

  revokeAccessTokens(domain: string): void {
    for (const [token, shop] of this.tokens) if (shop === domain) this.tokens.delete(token);
  }

  /** The next `times` Admin API requests fail this way, in order. */
  inject(fault: Fault, times = 1): void {
    for (let i = 0; i < times; i++) this.faults.push(fault);
  }

  pendingFaults(): number {
    return this.faults.length;
  }

  async handle(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const domain = (request.headers.get("x-forwarded-host") ?? url.hostname).toLowerCase();
    const entry = this.shops.get(domain);
    if (!entry) return json({ errors: "Not Found" }, 404);
    entry.api.stats.requests++;
    if (request.method === "POST" && url.pathname === "/admin/oauth/access_token") return this.accessToken(domain, request);
    const graphqlPath = /^\/admin\/api\/([^/]+)\/graphql\.json$/.exec(url.pathname);
    if (!graphqlPath || request.method !== "POST") return json({ errors: "Not Found" }, 404);
    if (graphqlPath[1] !== ADMIN_API_VERSION) return json({ errors: `This fake serves API version ${ADMIN_API_VERSION} only` }, 404);
    if (this.tokens.get(request.headers.get("x-shopify-access-token") ?? "") !== domain) {
      return json({ errors: "[API] Invalid API key or access token (unrecognized login or wrong password)" }, 401);
    }
    const fault = this.faults.shift();
    if (fault?.kind === "http") {
      return json({ errors: fault.status === 429 ? "Exceeded 2 calls per second for api client. Reduce request rates to resume uninterrupted service." : "Internal Server Error" }, fault.status, fault.retryAfter ? { "Retry-After": fault.retryAfter } : {});
    }
    if (fault?.kind === "throttled") {
      entry.api.stats.injectedThrottles++;
      return json({ errors: [{ message: "Throttled", extensions: { code: "THROTTLED", documentation: "https://shopify.dev/api/usage/rate-limits" } }], extensions: { cost: { requestedQueryCost: 0, actualQueryCost: null, throttleStatus: { maximumAvailable: entry.api.bucket.maximumAvailable, currentlyAvailable: 0, restoreRate: entry.api.bucket.restoreRate } } } });
    }
    if (fault?.kind === "slow") await new Promise((resolve) => setTimeout(resolve, fault.ms));
    let body: Record<string, unknown>;
    try {
      body = (await request.json()) as Record<string, unknown>;
    } catch {
      return json({ errors: "Bad Request" }, 400);
    }
    const result = await entry.api.graphql(body);
    if (fault?.kind === "truncated") {
      const text = JSON.stringify(result);
      return new Response(text.slice(0, Math.floor(text.length / 2)), { headers: { "Content-Type": "application/json" } });
    }
    return json(result);
  }

  private async accessToken(domain: string, request: Request): Promise<Response> {
    const body = (await request.json().catch(() => ({}))) as Record<string, string>;
    if (body.client_id !== this.app.apiKey || body.client_secret !== this.app.secret) {
      return json({ error: "invalid_client", error_description: "Client credentials are invalid" }, 401);
    }
    if (body.grant_type === "urn:ietf:params:oauth:grant-type:token-exchange") {
      const claims = verifySessionToken(body.subject_token ?? "", this.app.secret);
      if (!claims || claims.dest !== `https://${domain}`) return json({ error: "invalid_subject_token" }, 400);
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

  /** Serves the fake over HTTP on loopback; `extra` answers first (the demo's simulated admin pages). */
  async listen(port = 0, extra?: (request: Request) => Promise<Response | undefined>): Promise<string> {
    this.server = createServer(async (req, res) => {
      const request = toWebRequest(req);
      const respond = async () => (await extra?.(request)) ?? this.handle(request);
      const response = await respond().catch((error: Error) => json({ errors: error.message }, 500));
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(Buffer.from(await response.arrayBuffer()));
    });
    await new Promise<void>((resolve) => this.server!.listen(port, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
