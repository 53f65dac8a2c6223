import { randomUUID } from "node:crypto";
import type { PrismaClient } from "@prisma/client";
import { REFUND_CREATED } from "../contracts/registry.server";
import { unauthenticated } from "../shopify.server";
import db from "../db.server";
import { ShopifyReader, type ShopGraphql } from "./readback.server";
import { groupBy, nextDueTime, processDue, type RuntimeDeps } from "./runtime.server";
import { DEFAULT_SWEEP_INTERVAL_MS, shopsDueForSweep, sweepShop } from "./reconcile.server";
import { ORDER_REFUNDS_COST, recoverRecord, syncRecordStatus, unstampedRecords } from "../refunds/issue.server";
import { updateRecord } from "../refunds/records.server";

/** A request Shopify has not answered by then is abandoned (and retried later): a hung answer must not stall the worker. */
const REQUEST_TIMEOUT_MS = Number(process.env.VERIFIER_REQUEST_TIMEOUT_MS || 10_000);

/** The GraphQL Admin API with the shop's offline session, through Shopify's own client. */
export function offlineGraphql(shop: string): Promise<ShopGraphql> {
  return Promise.resolve(async (query, variables) => {
    const { admin } = await unauthenticated.admin(shop);
    const response = await admin.graphql(query, { variables, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    return response.json();
  });
}

let interactiveReader: ShopifyReader | undefined;

/**
 * For requests a person is waiting on (the refund form): through this process's rate-limit gate,
 * waiting out THROTTLED answers (up to a few seconds) instead of failing.
 */
export function interactiveGraphql(shop: string): ShopGraphql {
  interactiveReader ??= new ShopifyReader(offlineGraphql);
  return interactiveReader.graphql(shop, 100, { retryThrottled: true });
}

export interface WorkerOptions {
  db?: PrismaClient;
  now?: () => Date;
  workerId?: string;
  leaseMs?: number;
  /** The longest the loop sleeps between passes. */
  idleMs?: number;
  sweepIntervalMs?: number;
  graphqlFor?: (shop: string) => Promise<ShopGraphql>;
  log?: RuntimeDeps["log"];
  /** false inside the app: the worker's timers must not keep a stopping server alive. */
  keepProcessAlive?: boolean;
}

export interface Worker {
  deps: RuntimeDeps;
  reader: ShopifyReader;
  /** One pass: due operations, then due sweeps. */
  runOnce(): Promise<{ decided: number; opened: number }>;
  start(): void;
  stop(): Promise<void>;
}

function sleep(ms: number, keepProcessAlive: boolean) {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    if (!keepProcessAlive) timer.unref();
  });
}

export function createWorker(options: WorkerOptions = {}): Worker {
  const now = options.now ?? (() => new Date());
  const database = options.db ?? db;
  const reader = new ShopifyReader(options.graphqlFor ?? offlineGraphql);
  const log = options.log ?? ((message, fields) => console.log(JSON.stringify({ level: "info", message, ...fields })));
  const deps: RuntimeDeps = {
    db: database,
    contract: REFUND_CREATED,
    reader,
    now,
    workerId: options.workerId ?? `worker-${process.pid}-${randomUUID().slice(0, 8)}`,
    leaseMs: options.leaseMs ?? Number(process.env.VERIFIER_LEASE_MS || 30_000),
    log,
  };
  const sweepIntervalMs = options.sweepIntervalMs ?? Number(process.env.VERIFIER_SWEEP_INTERVAL_MS || DEFAULT_SWEEP_INTERVAL_MS);
  const idleMs = options.idleMs ?? 1_000;
  let running = false;
  let loop: Promise<void> | undefined;

  /** Refunds issued in the app: recover unstamped records, and follow transactions still settling after the verdict. */
  async function followIssuedRefunds() {
    const at = now();
    for (const record of await unstampedRecords(database, at)) {
      // Through the shop's rate-limit gate like every other read; a wait or an error leaves it for the next pass.
      await recoverRecord(database, REFUND_CREATED, reader.graphql(record.shop, ORDER_REFUNDS_COST), record, at);
    }
    const settling = await database.refundRecord.findMany({ where: { status: "created", refundRef: { not: null }, updatedAt: { lt: new Date(at.getTime() - 60_000) } }, take: 200 });
    for (const [shop, records] of groupBy(settling, (record) => record.shop)) {
      const outcomes = await reader.read(shop, records.map((r) => r.refundRef!));
      for (const record of records) {
        const outcome = outcomes.get(record.refundRef!);
        if (outcome?.ok && (await syncRecordStatus(database, shop, record.refundRef!, outcome.body, at))) continue;
        // Still settling: a write like any other (the revision rotates), so it is read again in a minute, not every pass.
        await updateRecord(database, record, {}, at).catch(() => undefined);
      }
    }
  }

  async function runOnce() {
    const pass = await processDue(deps);
    await followIssuedRefunds();
    let opened = 0;
    for (const shop of await shopsDueForSweep(database, now(), sweepIntervalMs)) {
      const sweep = await sweepShop(database, reader, REFUND_CREATED, shop, now());
      opened += sweep.opened;
      if (!sweep.ok) log("sweep failed", { shop, error: sweep.error });
    }
    return { decided: pass.decided, opened };
  }

  async function run() {
    while (running) {
      try {
        await runOnce();
      } catch (error) {
        log("worker pass failed", { error: (error as Error).message });
      }
      const next = await nextDueTime(database).catch(() => null);
      const wait = next ? Math.min(Math.max(next.getTime() - now().getTime(), 20), idleMs) : idleMs;
      if (running) await sleep(wait, options.keepProcessAlive ?? true);
    }
  }

  return {
    deps,
    reader,
    runOnce,
    start() {
      if (running) return;
      running = true;
      loop = run();
    },
    async stop() {
      running = false;
      await loop;
    },
  };
}

declare global {
  // The in-app worker, once per process (Vite's dev server re-imports modules).
  var refundVerifierWorker: Worker | undefined;
}

/** The worker runs inside the app unless VERIFIER_WORKER=off (then run `npm run worker` beside it). */
export function startInAppWorker(): void {
  if (process.env.VERIFIER_WORKER === "off" || globalThis.refundVerifierWorker) return;
  const worker = createWorker({ keepProcessAlive: false });
  globalThis.refundVerifierWorker = worker;
  worker.start();
  for (const signal of ["SIGTERM", "SIGINT"] as const) process.once(signal, () => void worker.stop());
}
