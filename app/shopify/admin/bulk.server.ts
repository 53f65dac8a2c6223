import type { AdminFailure, ShopifyGateway } from "./gateway.server";
import { BULK_OPERATION_STATE_QUERY, BULK_QUERY_RUN_MUTATION, QUERY_COSTS } from "./documents";
import { config } from "../../lib/config/env.server";

export type BulkStart =
  | { ok: true; id: string }
  /** Shopify refused the query: `busy` when the shop's bulk operations are at their limit (try later), else for good. */
  | { ok: false; refused: true; busy: boolean; message: string }
  | (AdminFailure & { refused?: false });

/** Starts a bulk query. Shopify's userErrors come back by code: LIMIT_REACHED and OPERATION_IN_PROGRESS mean "later", not "never". */
export async function startBulkQuery(gateway: ShopifyGateway, shop: string, query: string): Promise<BulkStart> {
  const answer = await gateway.request(shop, BULK_QUERY_RUN_MUTATION, { query }, QUERY_COSTS.bulkQueryRun);
  if (!answer.ok) return answer;
  const payload = answer.data.bulkOperationRunQuery;
  const userErrors = payload?.userErrors ?? [];
  if (userErrors.length || !payload?.bulkOperation) {
    const busy = userErrors.some((e) => e.code === "LIMIT_REACHED" || e.code === "OPERATION_IN_PROGRESS");
    return { ok: false, refused: true, busy, message: userErrors.map((e) => e.message).join("; ") || "Shopify started no bulk operation" };
  }
  return { ok: true, id: payload.bulkOperation.id };
}

export interface BulkState {
  status: string;
  errorCode: string | null;
  objectCount: number;
  url: string | null;
  partialDataUrl: string | null;
  completedAt: string | null;
}

export async function bulkOperationState(gateway: ShopifyGateway, shop: string, id: string): Promise<{ ok: true; state: BulkState | null } | AdminFailure> {
  const answer = await gateway.request(shop, BULK_OPERATION_STATE_QUERY, { id }, QUERY_COSTS.bulkOperationState);
  if (!answer.ok) return answer;
  // A field Shopify could not give (its url, say) is an error, not "no file": ask again.
  if (answer.fieldErrors.length) {
    const message = `Shopify did not give every field of the bulk operation: ${answer.fieldErrors[0].message}`;
    return {
      ok: false,
      kind: "graphql",
      code: answer.fieldErrors[0].extensions?.code ?? "FIELD_ERROR",
      message,
      retryAfterMs: 10_000,
      apiVersion: answer.apiVersion,
    };
  }
  const node = answer.data.node;
  if (!node || !("status" in node)) return { ok: true, state: null };
  return {
    ok: true,
    state: {
      status: node.status,
      errorCode: node.errorCode ?? null,
      objectCount: Number(node.objectCount),
      url: node.url ?? null,
      partialDataUrl: node.partialDataUrl ?? null,
      completedAt: node.completedAt ?? null,
    },
  };
}

/**
 * Shopify's result files are on its Google Cloud Storage buckets (storage.googleapis.com/shopify…),
 * over HTTPS, at a signed URL. Anything else is refused: the URL came in an answer, and a file from
 * elsewhere would be taken as the shop's history. Plain HTTP only to this machine, and only where
 * the app is pointed at a simulated Shopify on it (SHOPIFY_ADMIN_API_ORIGIN: the tests and the demo).
 */
function allowedResultUrl(url: string): boolean {
  try {
    const parsed = new URL(url);
    if (parsed.protocol === "https:") return parsed.hostname === "storage.googleapis.com" && /^\/shopify[a-z0-9-]*\//.test(parsed.pathname);
    return parsed.protocol === "http:" && Boolean(config().SHOPIFY_ADMIN_API_ORIGIN) && ["127.0.0.1", "localhost", "[::1]"].includes(parsed.hostname);
  } catch {
    return false;
  }
}

/** Where a URL points, for a message: its host only (a signed URL is a credential for the file). */
const hostOf = (url: string) => {
  try {
    return new URL(url).host;
  } catch {
    return "an address that is not a URL";
  }
};

/** A download that sends nothing for this long is abandoned (and read on from its last stored line later). */
const IDLE_TIMEOUT_MS = 60_000;
/** No line of a bulk result is this long: past it the file is not JSONL. */
const MAX_LINE_BYTES = 16 * 1024 * 1024;

export class BulkDownloadError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
  ) {
    super(message);
  }
}

/** Where a read of a result stands: the next line's number and the byte it starts at. */
export interface ResultPosition {
  line: number;
  byte: number;
}

/** A line of the result: its number, its text, and the position after it (where a later read goes on). */
export interface ResultLine {
  line: number;
  text: string;
  next: ResultPosition;
  /** False for a last line the file ended in the middle of (no newline after it): maybe cut short. */
  terminated: boolean;
}

const NEWLINE = 0x0a;

/**
 * The lines of a bulk result from `from` on, streamed: never more than one line (and the
 * stream's buffer) in memory, however large the file. Past the start it asks for the rest only,
 * with an HTTP Range request (Google Cloud Storage answers 206); a store that sends the whole
 * file instead (200) is read from its start, the lines before `from` skipped. Lines are split on
 * the bytes, so each position is exact whatever the text holds. Read with the body's own reader:
 * the server's global fetch may be a polyfill whose streams node:stream's `Readable.fromWeb` refuses.
 */
export async function* bulkResultLines(url: string, from: ResultPosition = { line: 0, byte: 0 }): AsyncGenerator<ResultLine> {
  if (!allowedResultUrl(url)) throw new BulkDownloadError(`refusing to read a bulk result from ${hostOf(url)}: not Shopify's result storage`, null);
  const abort = new AbortController();
  let idle = setTimeout(() => abort.abort(), IDLE_TIMEOUT_MS);
  const headers: Record<string, string> = from.byte > 0 ? { Range: `bytes=${from.byte}-` } : {};
  // A redirect could lead the https check elsewhere: the signed URL is the file.
  const response = await fetch(url, { redirect: "error", signal: abort.signal, headers }).catch((error: Error) => {
    throw new BulkDownloadError(`the bulk result could not be downloaded: ${error.message}`, null);
  });
  // Asked for the bytes after the end: the file ended exactly where the last read stopped.
  if (response.status === 416) {
    clearTimeout(idle);
    await response.body?.cancel();
    return;
  }
  if (!response.ok || !response.body) {
    clearTimeout(idle);
    await response.body?.cancel();
    const expired = response.status === 404 || response.status === 403;
    throw new BulkDownloadError(`the bulk result could not be downloaded: HTTP ${response.status}${expired ? " (its URL has expired)" : ""}`, response.status);
  }
  const ranged = response.status === 206;
  // A part of the file that does not start where it was asked to would misnumber every line.
  if (ranged && !new RegExp(`^bytes ${from.byte}-`).test(response.headers.get("content-range") ?? "")) {
    clearTimeout(idle);
    await response.body.cancel();
    throw new BulkDownloadError(`the bulk result store answered a part of the file that does not start at byte ${from.byte}`, response.status);
  }
  let position = ranged ? { ...from } : { line: 0, byte: 0 };
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  let finished = false;
  const take = (chunk: Uint8Array, end: number, terminated: boolean): ResultLine | null => {
    const bytes = Buffer.concat([...pending, chunk.subarray(0, end)]);
    pending = [];
    pendingBytes = 0;
    const at = position;
    const text = decoder.decode(bytes);
    // A blank line is no object and takes no number: so the newline that ended a line the last
    // download stopped just before is not taken for a line when a Range read starts at it.
    const blank = text.trim() === "";
    position = { line: at.line + (blank ? 0 : 1), byte: at.byte + bytes.length + (terminated ? 1 : 0) };
    return !blank && at.line >= from.line ? { line: at.line, text, next: position, terminated } : null;
  };
  try {
    for (;;) {
      const { done, value } = await reader.read().catch((error: Error) => {
        throw new BulkDownloadError(`the bulk result stopped arriving: ${error.message}`, null);
      });
      clearTimeout(idle);
      idle = setTimeout(() => abort.abort(), IDLE_TIMEOUT_MS);
      if (done) {
        const last = pendingBytes ? take(new Uint8Array(0), 0, false) : null;
        if (last) yield last;
        return void (finished = true);
      }
      let chunk = value;
      for (let newline = chunk.indexOf(NEWLINE); newline !== -1; newline = chunk.indexOf(NEWLINE)) {
        const line = take(chunk, newline, true);
        if (line) yield line;
        chunk = chunk.subarray(newline + 1);
      }
      pending.push(chunk);
      pendingBytes += chunk.length;
      if (pendingBytes > MAX_LINE_BYTES) throw new BulkDownloadError("the bulk result is not JSONL: a line longer than 16 MiB", null);
    }
  } finally {
    clearTimeout(idle);
    // A reader that stopped early (an error while staging) lets go of the download.
    if (!finished) await reader.cancel().catch(() => undefined);
  }
}
