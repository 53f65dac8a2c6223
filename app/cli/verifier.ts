import { parseArgs } from "node:util";
import type { PrismaClient } from "@prisma/client";
import { z } from "zod";
import { parseStored, storedStrings } from "../lib/db/stored-json";
import { runBackfillPass } from "../backfill/backfill.server";
import { progressText, parsedSummary } from "../backfill/progress";
import { DEFAULT_BACKFILL_DAYS, MAX_BACKFILL_DAYS, requestBackfill } from "../backfill/request.server";
import { summarySentence } from "../backfill/summary.server";
import type { ShopifyGateway } from "../shopify/admin/gateway.server";
import { markDue } from "../verification/operations.server";
import { requestSweep } from "../verification/reconcile.server";
import { rebuildRollups, rollupDrift } from "../dashboard/rollups.server";
import { databaseKind, databaseUrl } from "../lib/db/url";
import { cliLogger } from "../lib/logging/logger.server";

export const USAGE = `usage: verifier <command> …   (reads DATABASE_URL, as the app does)
  operations --shop <shop domain> [--json]   list the shop's operations
  reverify <operation id>                    schedule an immediate re-check of a pending operation
  sweep --shop <shop domain>                 ask for a reconciliation sweep of the shop now
  backfill --shop <shop domain> [--days N]   verify the refunds of the shop's last N days (default 60), with a progress line
  compliance --shop <shop domain> [--json]   the compliance requests received (data requests and redactions)
  rollups [--rebuild] [--shop <shop domain>] check the dashboard's rollup against a recount of the operations;
                                             --rebuild recounts it (all shops, or one)`;

export class CliError extends Error {}

const OPTIONS = {
  shop: { type: "string" },
  days: { type: "string" },
  json: { type: "boolean", default: false },
  rebuild: { type: "boolean", default: false },
} as const;

type Options = ReturnType<typeof parseOptions>["values"];

/** Node's own parser: an unknown option or a missing value is refused, with the usage. */
function parseOptions(args: string[]) {
  try {
    return parseArgs({ args, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    throw new CliError(`${(error as Error).message}\n${USAGE}`);
  }
}

function requiredShop(shop: string | undefined): string {
  if (!shop || !/^[a-z0-9][a-z0-9-]*\.myshopify\.com$/.test(shop)) throw new CliError(`--shop needs a shop domain such as example.myshopify.com\n${USAGE}`);
  return shop;
}

function table(rows: Record<string, unknown>[]): string {
  if (rows.length === 0) return "(none)\n";
  const keys = Object.keys(rows[0]);
  const cell = (value: unknown) =>
    value === null || value === undefined ? "" : value instanceof Date ? value.toISOString() : Array.isArray(value) ? value.join(",") : String(value);
  const widths = keys.map((key) => Math.max(key.length, ...rows.map((row) => cell(row[key]).length)));
  const line = (values: string[]) =>
    values
      .map((value, i) => value.padEnd(widths[i]))
      .join("  ")
      .trimEnd();
  return `${[line(keys), ...rows.map((row) => line(keys.map((key) => cell(row[key]))))].join("\n")}\n`;
}

export interface CliContext {
  /** The Admin API with the shop's offline session (the backfill reads Shopify itself). */
  gateway?: () => Promise<ShopifyGateway>;
  /** Where the progress line goes (stderr; overwritten in place on a terminal). */
  progress?: (line: string) => void;
  /** How long to wait between passes while Shopify runs the bulk query. */
  pollMs?: number;
}

function days(value: string | undefined): number {
  if (value === undefined) return DEFAULT_BACKFILL_DAYS;
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > MAX_BACKFILL_DAYS)
    throw new CliError(`--days needs a whole number from 1 to ${MAX_BACKFILL_DAYS}\n${USAGE}`);
  return Number(value);
}

/** Asks for the backfill, then runs it here (claimed like any worker's) to its end, the progress line following it. */
async function backfill(db: PrismaClient, shop: string, options: Options, now: Date, context: CliContext): Promise<string> {
  const request = await requestBackfill(db, shop, days(options.days), "cli", now);
  const head = request.created
    ? `backfill of ${shop}'s last ${request.backfill.days} days requested${request.notice ? ` (${request.notice})` : ""}\n`
    : `a backfill of ${shop} is already running (asked for on ${request.backfill.createdAt.toISOString()}): following it\n`;
  context.progress?.(head);
  if (!context.gateway) return `${head}the worker runs it; the dashboard shows its progress\n`;
  const gateway = await context.gateway();
  const deps = { db, gateway, now: () => new Date(), workerId: `cli-${process.pid}`, logger: cliLogger(), shop, pollMs: context.pollMs ?? 2_000 };
  let shown = "";
  const show = (line: string) => {
    if (line !== shown) context.progress?.(`${line}\n`);
    shown = line;
  };
  for (;;) {
    await runBackfillPass({ ...deps, onProgress: (b) => show(progressText(b)) });
    const current = await db.backfill.findUniqueOrThrow({ where: { id: request.backfill.id } });
    show(progressText(current));
    if (current.state === "failed") throw new CliError(`backfill of ${shop} failed: ${current.message}`);
    const summary = parsedSummary(current);
    if (current.state === "done" && summary) return `${summarySentence(summary)}\n`;
    await new Promise((resolve) => setTimeout(resolve, Math.min(deps.pollMs, Math.max((current.nextDueAt?.getTime() ?? 0) - Date.now(), 50))));
  }
}

export async function runVerifierCli(db: PrismaClient, args: string[], now = new Date(), context: CliContext = {}): Promise<string> {
  const [command, ...rest] = args;
  const { values: options, positionals } = parseOptions(rest);
  switch (command) {
    case "operations": {
      const shop = requiredShop(options.shop);
      const operations = await db.operation.findMany({ where: { shop }, orderBy: { startedAt: "desc" } });
      const rows = operations.map((op) => ({
        id: op.id,
        refund: op.refundGid,
        order: op.orderGid,
        order_name: op.orderName,
        origin: op.origin,
        amount: op.amount,
        currency: op.currency,
        verdict: op.status,
        reason: op.reason,
        reasons: parseStored(storedStrings, op.reasons, "Operation.reasons"),
        escalate: op.escalate,
        attempts: op.attempts,
        next_due_at: op.nextDueAt,
        contract: `${op.contractId}@${op.contractVersion}`,
        contract_hash: op.contractHash,
      }));
      return options.json ? `${JSON.stringify(rows, null, 2)}\n` : table(rows);
    }
    case "reverify": {
      const id = positionals[0];
      if (!id) throw new CliError(`reverify needs an operation id\n${USAGE}`);
      const operation = await db.operation.findUnique({ where: { id } });
      if (!operation) throw new CliError(`no operation ${id}`);
      if (operation.status !== "PENDING") return `operation ${id} is final (${operation.status}); a final verdict is not re-opened\n`;
      await markDue(db, { id }, now);
      return `operation ${id} is due now; the worker re-checks it on its next pass\n`;
    }
    case "sweep": {
      const shop = requiredShop(options.shop);
      await requestSweep(db, shop);
      return `a reconciliation sweep of ${shop} is due now\n`;
    }
    case "backfill":
      return backfill(db, requiredShop(options.shop), options, now, context);
    case "rollups": {
      const shop = options.shop === undefined ? undefined : requiredShop(options.shop);
      const kind = databaseKind(databaseUrl());
      if (options.rebuild) {
        const rows = await rebuildRollups(db, kind, shop);
        return `rollup rebuilt from the operations${shop ? ` of ${shop}` : ""}: ${rows} rows (shop, day, verdict, currency)\n`;
      }
      const drift = await rollupDrift(db, kind, shop);
      if (!drift.length) return `rollup matches a recount of the operations${shop ? ` of ${shop}` : ""}\n`;
      throw new CliError(
        `rollup differs from a recount in ${drift.length} rows; run \`verifier rollups --rebuild\`\n${table(drift.slice(0, 20).map((d) => ({ ...d })))}`,
      );
    }
    case "compliance": {
      const shop = requiredShop(options.shop);
      const requests = await db.complianceRequest.findMany({ where: { shop }, orderBy: { receivedAt: "asc" } });
      const rows = requests.map((r) => ({
        id: r.id,
        topic: r.topic,
        received_at: r.receivedAt,
        detail: parseStored(z.unknown(), r.detail, "ComplianceRequest.detail"),
      }));
      return options.json ? `${JSON.stringify(rows, null, 2)}\n` : table(rows.map((r) => ({ ...r, detail: JSON.stringify(r.detail) })));
    }
    default:
      throw new CliError(command ? `unknown command: ${command}\n${USAGE}` : USAGE);
  }
}
