import { randomBytes } from "node:crypto";
import {
  getNamedType,
  getNullableType,
  isListType,
  Kind,
  parse,
  TypeInfo,
  validate,
  visit,
  visitWithTypeInfo,
  type DocumentNode,
  type GraphQLSchema,
} from "graphql";
import { dateTime, gid } from "./views";

export type BulkStatus = "CREATED" | "RUNNING" | "COMPLETED" | "FAILED" | "CANCELED" | "EXPIRED";
export type BulkErrorCode = "ACCESS_DENIED" | "INTERNAL_SERVER_ERROR" | "TIMEOUT";

interface FakeBulkOperation {
  id: bigint;
  query: string;
  status: BulkStatus;
  errorCode: BulkErrorCode | null;
  createdAt: Date;
  completedAt: Date | null;
  lines: string[];
  rootObjectCount: number;
  /** Set once finished: the file's token in /bulk-results/<token>.jsonl (partial data for a FAILED one). */
  token: string | null;
  /** The result URL answers 404 (Shopify's signed URLs expire after seven days). */
  expired: boolean;
  /** How it ends when Shopify's clock reaches `createdAt + runMs`: FAILED with this code, or COMPLETED. */
  failure: BulkErrorCode | null;
}

interface BulkUserError {
  field: string[] | null;
  message: string;
  code: "INVALID" | "LIMIT_REACHED" | "OPERATION_IN_PROGRESS";
}

/** Runs the query document against the shop's data, every connection unpaginated, as a bulk operation reads it. */
export type ExecuteBulk = (document: DocumentNode) => Promise<{ data?: Record<string, unknown> | null; errors?: readonly { message: string }[] }>;

const invalid = (message: string): BulkUserError => ({ field: ["query"], message, code: "INVALID" });

const isConnectionType = (name: string) => name.endsWith("Connection");

/**
 * The rules Shopify's bulk operations guide states in prose, checked as Shopify's validator does
 * (messages as Shopify words them): at least one connection, at most five, connections nested at
 * most two levels deep, and no connection inside a list field.
 */
function bulkQueryErrors(schema: GraphQLSchema, document: DocumentNode): BulkUserError[] {
  const operations = document.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION);
  if (operations.length !== 1 || operations[0].operation !== "query") return [invalid("Invalid bulk query: the document must hold one query operation.")];
  const typeInfo = new TypeInfo(schema);
  // For each field entered: is it a connection, or a list field that is not a connection's edges or nodes?
  const stack: { connection: boolean; list: boolean }[] = [];
  let connections = 0;
  let tooDeep = false;
  let withinList = false;
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      Field: {
        enter(node) {
          const type = typeInfo.getType();
          const named = type ? getNamedType(type) : undefined;
          const connection = Boolean(named && isConnectionType(named.name));
          const parent = stack[stack.length - 1];
          const connectionPart = parent?.connection && (node.name.value === "edges" || node.name.value === "nodes");
          const list = Boolean(type && isListType(getNullableType(type)) && !connectionPart);
          if (connection) {
            connections++;
            if (stack.filter((f) => f.connection).length >= 3) tooDeep = true;
            if (stack.some((f) => f.list)) withinList = true;
          }
          stack.push({ connection, list });
        },
        leave() {
          stack.pop();
        },
      },
    }),
  );
  const errors: BulkUserError[] = [];
  if (connections === 0) errors.push(invalid("Bulk queries must contain at least one connection."));
  if (connections > 5) errors.push(invalid("Bulk queries cannot contain more than 5 connections."));
  if (tooDeep) errors.push(invalid("Bulk queries cannot contain connections with a nesting depth greater than 2."));
  if (withinList) errors.push(invalid("Queries that contain a connection field within a list field are not currently supported."));
  return errors;
}

const nodesOf = (value: Record<string, unknown>): Record<string, unknown>[] =>
  Array.isArray(value.edges) ? (value.edges as { node: Record<string, unknown> }[]).map((e) => e.node) : ((value.nodes as Record<string, unknown>[]) ?? []);

const isConnectionValue = (value: unknown): value is Record<string, unknown> =>
  Boolean(
    value &&
    typeof value === "object" &&
    !Array.isArray(value) &&
    (Array.isArray((value as { edges?: unknown }).edges) || Array.isArray((value as { nodes?: unknown }).nodes)),
  );

/**
 * The JSONL of a bulk query's result, as Shopify writes it without `groupObjects`: one line per
 * connection node, nested connections taken out of their parent and written as lines of their
 * own with `__parentId`. Children come after their parent but not next to it: this writes level
 * by level (every order, then every agreement, then every transaction), which Shopify's guide
 * allows, so a reader that assumes grouping fails here as it would there.
 */
function toJsonl(data: Record<string, unknown>): { lines: string[]; roots: number } {
  const lines: string[] = [];
  let level: { connection: Record<string, unknown>; parentId: string | null }[] = Object.values(data)
    .filter(isConnectionValue)
    .map((connection) => ({ connection, parentId: null }));
  let roots = -1;
  while (level.length) {
    const next: typeof level = [];
    for (const { connection, parentId } of level) {
      for (const node of nodesOf(connection)) {
        const strip = (value: unknown): unknown => {
          if (Array.isArray(value)) return value.map(strip);
          if (!value || typeof value !== "object") return value;
          const out: Record<string, unknown> = {};
          for (const [key, child] of Object.entries(value)) {
            if (isConnectionValue(child)) next.push({ connection: child, parentId: String(node.id) });
            else out[key] = strip(child);
          }
          return out;
        };
        const line = strip(node) as Record<string, unknown>;
        lines.push(JSON.stringify(parentId ? { ...line, __parentId: parentId } : line));
      }
    }
    if (roots < 0) roots = lines.length;
    level = next;
  }
  return { lines, roots: Math.max(roots, 0) };
}

/**
 * A shop's bulk operations. From 2026-01 an app may run several bulk queries in a shop at once
 * (`concurrencyLimit`, 5 here); past the limit `bulkOperationRunQuery` answers LIMIT_REACHED
 * (OPERATION_IN_PROGRESS where the limit is one, as before 2026-01).
 */
export class FakeBulkOperations {
  private readonly operations = new Map<bigint, FakeBulkOperation>();
  private nextId = 1n;
  concurrencyLimit = 5;
  /**
   * How long an operation runs before it completes, on Shopify's clock (the FakeShopify's `now`):
   * in real time unless a test drives that clock, in which case an operation finishes when the
   * test moves the clock past its end (and the next request or `flushWebhooks` notices).
   */
  runMs = 50;
  /** The next operation fails this way: FAILED with this code, half its lines as partial data. */
  failNext: BulkErrorCode | null = null;
  /** The next result's first line of this object type (a transaction, say) is not JSON (its id and parent still legible). */
  corruptNextLineOf: string | null = null;
  /** Called when an operation finishes (the FakeShopify sends bulk_operations/finish). */
  onFinished?: (operation: ReturnType<FakeBulkOperations["view"]>) => void;
  /**
   * How the result store answers downloads, as Google Cloud Storage does unless a test says
   * otherwise: `ranges` honours `Range: bytes=N-` (206), else sends the whole file (200);
   * `cutNext` downloads end cleanly after four fifths of the bytes asked for (a proxy that
   * dropped the tail), anywhere or, with `cutBeforeNewline`, just before the newline that ends a
   * line there (the line whole, its newline lost); `linesPerSecond` paces the file (a slow
   * store), unpaced when 0.
   */
  readonly store = { ranges: true, cutNext: 0, cutBeforeNewline: false, linesPerSecond: 0 };
  /** Bulk queries started, results downloaded, and of those the ones asked for from a byte on. */
  readonly stats = { started: 0, downloads: 0, rangeDownloads: 0 };

  constructor(
    private readonly now: () => Date,
    private readonly resultUrl: (token: string) => string | null,
  ) {}

  async run(schema: GraphQLSchema, query: string, execute: ExecuteBulk) {
    let document: DocumentNode;
    try {
      document = parse(query);
    } catch (error) {
      return { bulkOperation: null, userErrors: [invalid(`Invalid bulk query: ${(error as Error).message}`)] };
    }
    const errors = validate(schema, document).map((e) => invalid(`Invalid bulk query: ${e.message}`));
    if (!errors.length) errors.push(...bulkQueryErrors(schema, document));
    if (errors.length) return { bulkOperation: null, userErrors: errors };
    this.advance();
    const running = [...this.operations.values()].filter((o) => o.status === "CREATED" || o.status === "RUNNING").length;
    if (running >= this.concurrencyLimit) {
      const userError: BulkUserError =
        this.concurrencyLimit === 1
          ? { field: null, message: "A bulk query operation for this app and shop is already in progress.", code: "OPERATION_IN_PROGRESS" }
          : { field: null, message: "Bulk operations limit reached. Please try again later.", code: "LIMIT_REACHED" };
      return { bulkOperation: null, userErrors: [userError] };
    }
    const result = await execute(document);
    const { lines, roots } = toJsonl(result.data ?? {});
    if (this.corruptNextLineOf !== null) {
      const index = lines.findIndex((line) => line.includes(`"id":"gid://shopify/${this.corruptNextLineOf}/`));
      if (index >= 0) lines[index] = lines[index].replace("{", "{,");
      this.corruptNextLineOf = null;
    }
    const operation: FakeBulkOperation = {
      id: this.nextId++,
      query,
      status: "CREATED",
      errorCode: null,
      createdAt: this.now(),
      completedAt: null,
      lines,
      rootObjectCount: roots,
      token: null,
      expired: false,
      failure: this.failNext,
    };
    this.failNext = null;
    this.operations.set(operation.id, operation);
    this.stats.started++;
    // In real time nobody may ask again soon: finish on time anyway, so its webhook goes out. Under
    // a test's clock this finds nothing to do until the test has moved the clock.
    setTimeout(() => this.advance(), this.runMs).unref();
    return { bulkOperation: this.view(operation), userErrors: [] };
  }

  /** Moves every operation on as far as Shopify's clock says: RUNNING halfway, finished at the end (sending bulk_operations/finish). */
  advance(): void {
    const now = this.now().getTime();
    for (const operation of this.operations.values()) {
      if (operation.status !== "CREATED" && operation.status !== "RUNNING") continue;
      const started = operation.createdAt.getTime();
      if (now >= started + this.runMs) this.finish(operation, now);
      else if (now >= started + Math.floor(this.runMs / 2)) operation.status = "RUNNING";
    }
  }

  private finish(operation: FakeBulkOperation, nowMs: number) {
    operation.completedAt = new Date(nowMs);
    operation.token = randomBytes(12).toString("hex");
    if (operation.failure) {
      operation.status = "FAILED";
      operation.errorCode = operation.failure;
      operation.lines = operation.lines.slice(0, Math.floor(operation.lines.length / 2));
    } else {
      operation.status = "COMPLETED";
    }
    this.onFinished?.(this.view(operation));
  }

  /**
   * Every finished result's URL expires: downloads answer 404, and the operations say EXPIRED
   * (or, with `statusToo` false, still COMPLETED with the old URL: a URL that expired between the
   * app's look at the operation and its download).
   */
  expireResults(statusToo = true): void {
    this.advance();
    for (const operation of this.operations.values()) {
      if (!operation.token) continue;
      operation.expired = true;
      if (statusToo && operation.status === "COMPLETED") operation.status = "EXPIRED";
    }
  }

  find(id: string) {
    this.advance();
    const match = /^gid:\/\/shopify\/BulkOperation\/(\d+)$/.exec(id);
    const operation = match && this.operations.get(BigInt(match[1]));
    return operation ? this.view(operation) : null;
  }

  current() {
    this.advance();
    const latest = [...this.operations.values()].pop();
    return latest ? this.view(latest) : null;
  }

  /** The JSONL file behind a result URL, or null (unknown or expired: 404). */
  file(token: string): string[] | null {
    this.advance();
    const operation = [...this.operations.values()].find((o) => o.token === token);
    if (!operation || operation.expired) return null;
    this.stats.downloads++;
    return operation.lines;
  }

  view(operation: FakeBulkOperation) {
    const finished = operation.status !== "CREATED" && operation.status !== "RUNNING";
    const counted = finished ? operation.lines.length : operation.status === "RUNNING" ? Math.floor(operation.lines.length / 2) : 0;
    const url = operation.token && (!operation.expired || operation.status === "COMPLETED") ? this.resultUrl(operation.token) : null;
    return {
      __typename: "BulkOperation",
      id: gid("BulkOperation", operation.id),
      status: operation.status,
      errorCode: operation.errorCode,
      createdAt: dateTime(operation.createdAt),
      completedAt: operation.completedAt ? dateTime(operation.completedAt) : null,
      objectCount: String(counted),
      rootObjectCount: String(finished ? operation.rootObjectCount : 0),
      fileSize: url ? String(operation.lines.reduce((n, line) => n + Buffer.byteLength(line) + 1, 0)) : null,
      url: operation.status === "COMPLETED" ? url : null,
      partialDataUrl: operation.status === "FAILED" ? url : null,
      query: operation.query,
      type: "QUERY",
    };
  }
}
