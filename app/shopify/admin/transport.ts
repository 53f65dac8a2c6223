export interface QueryCost {
  requestedQueryCost?: number;
  actualQueryCost?: number | null;
  throttleStatus?: { maximumAvailable: number; currentlyAvailable: number; restoreRate: number };
}

/** One entry of a GraphQL `errors` list as Shopify sends it; `path` names the field it nulled. */
export interface ShopifyGraphqlError {
  message: string;
  path?: (string | number)[];
  extensions?: { code?: string; [key: string]: unknown };
}

/** Any answer Shopify gave over HTTP 200: data, errors (THROTTLED, ACCESS_DENIED…) or both. */
export interface AdminResponse {
  data?: unknown;
  errors?: ShopifyGraphqlError[];
  extensions?: { cost?: QueryCost };
  /** X-Shopify-API-Version: the version that really answered (an unsupported one falls forward). */
  apiVersion: string | null;
}

/**
 * No GraphQL answer: an HTTP error status, or nothing at all. `timeout` is our giving up on a
 * request that may still be on its way, and still be charged when it arrives; `network` is a
 * connection that failed (a reset, a refused connection): whatever it was, it is over.
 */
export class TransportError extends Error {
  constructor(
    readonly kind: "http" | "network" | "timeout" | "session",
    message: string,
    readonly status?: number,
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}

/** Sends one document for a shop; resolves with every GraphQL answer, throws TransportError otherwise. */
export type ShopGraphql = (query: string, variables: Record<string, unknown>) => Promise<AdminResponse>;
