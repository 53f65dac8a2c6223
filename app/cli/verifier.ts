import type { PrismaClient } from "@prisma/client";
import { markDue } from "../verification/operations.server";
import { requestSweep } from "../verification/reconcile.server";

export const USAGE = `usage: verifier <command> …   (reads DATABASE_URL, as the app does)
  operations --shop <shop domain> [--json]   list the shop's operations
  reverify <operation id>                    schedule an immediate re-check of a pending operation
  sweep --shop <shop domain>                 ask for a reconciliation sweep of the shop now
  compliance --shop <shop domain> [--json]   the compliance requests received (data requests and redactions)`;

export class CliError extends Error {}

function option(args: string[], name: string): string | undefined {
  const index = args.indexOf(name);
  return index >= 0 ? args[index + 1] : undefined;
}

function requiredShop(args: string[]): string {
  const shop = option(args, "--shop");
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

export async function runVerifierCli(db: PrismaClient, args: string[], now = new Date()): Promise<string> {
  const [command, ...rest] = args;
  switch (command) {
    case "operations": {
      const shop = requiredShop(rest);
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
        reasons: JSON.parse(op.reasons) as string[],
        escalate: op.escalate,
        attempts: op.attempts,
        next_due_at: op.nextDueAt,
        contract: `${op.contractId}@${op.contractVersion}`,
        contract_hash: op.contractHash,
      }));
      return rest.includes("--json") ? `${JSON.stringify(rows, null, 2)}\n` : table(rows);
    }
    case "reverify": {
      const id = rest[0];
      if (!id) throw new CliError(`reverify needs an operation id\n${USAGE}`);
      const operation = await db.operation.findUnique({ where: { id } });
      if (!operation) throw new CliError(`no operation ${id}`);
      if (operation.status !== "PENDING") return `operation ${id} is final (${operation.status}); a final verdict is not re-opened\n`;
      await markDue(db, { id }, now);
      return `operation ${id} is due now; the worker re-checks it on its next pass\n`;
    }
    case "sweep": {
      const shop = requiredShop(rest);
      await requestSweep(db, shop);
      return `a reconciliation sweep of ${shop} is due now\n`;
    }
    case "compliance": {
      const shop = requiredShop(rest);
      const requests = await db.complianceRequest.findMany({ where: { shop }, orderBy: { receivedAt: "asc" } });
      const rows = requests.map((r) => ({ id: r.id, topic: r.topic, received_at: r.receivedAt, detail: JSON.parse(r.detail) as unknown }));
      return rest.includes("--json") ? `${JSON.stringify(rows, null, 2)}\n` : table(rows.map((r) => ({ ...r, detail: JSON.stringify(r.detail) })));
    }
    default:
      throw new CliError(command ? `unknown command: ${command}\n${USAGE}` : USAGE);
  }
}
