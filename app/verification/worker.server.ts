import { randomUUID } from "node:crypto";
import type { PrismaClient } from "@prisma/client";
import { REFUND_CREATED } from "../contracts/registry.server";
import db from "../db.server";
import { logger } from "../logging/logger.server";
import { ShopifyGateway } from "../shopify/admin/gateway.server";
import { readRefunds } from "../shopify/admin/refund-readback.server";
import { offlineGraphql } from "../shopify/admin/offline-client.server";
import type { ShopGraphql } from "../shopify/admin/transport";
import { recoverUnsettledRecords } from "../refunds/recover.server";
import { syncRecordStatus } from "../refunds/sync.server";
import { runAlertPasses, type AlertPassResult } from "../alerts/passes.server";
import { groupingFromEnv, type GroupingTiming } from "../alerts/grouping.server";
import { groupBy, nextDueTime, processDue, type RuntimeDeps } from "./runtime.server";
import { DEFAULT_FIRST_LOOK_BACK_MS, DEFAULT_SWEEP_INTERVAL_MS, shopsDueForSweep, sweepShop } from "./reconcile.server";

/** Refunds issued in the app whose transactions still settle are read again this often. */
const SETTLE_INTERVAL_MS = 60_000;

let interactive: ShopifyGateway | undefined;

/** For requests a person is waiting on (the refund form): this process's gateway, with its own view of each shop's bucket. */
export function interactiveGateway(): ShopifyGateway {
  interactive ??= new ShopifyGateway(offlineGraphql);
  return interactive;
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
  gateway?: ShopifyGateway;
  log?: RuntimeDeps["log"];
  /** How verdicts decided close together are grouped into one instant alert. */
  alertGrouping?: GroupingTiming;
  /** false inside the app: the worker's timers must not keep a stopping server alive. */
  keepProcessAlive?: boolean;
}

export interface Worker {
  deps: RuntimeDeps;
  gateway: ShopifyGateway;
  /** One pass: due operations, then due sweeps, then alerts. */
  runOnce(): Promise<{ decided: number; opened: number; alerts: AlertPassResult }>;
  /** The alert passes alone (the loop runs them beside verification, so a slow mail server never delays a verdict). */
  runAlerts(): Promise<AlertPassResult>;
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
  const gateway = options.gateway ?? new ShopifyGateway(options.graphqlFor ?? offlineGraphql);
  const workerId = options.workerId ?? `worker-${process.pid}-${randomUUID().slice(0, 8)}`;
  const workerLogger = logger.child({ worker: workerId });
  const log = options.log ?? ((message: string, fields?: Record<string, unknown>) => workerLogger.info(fields ?? {}, message));
  const deps: RuntimeDeps = {
    db: database,
    contract: REFUND_CREATED,
    gateway,
    now,
    workerId,
    leaseMs: options.leaseMs ?? Number(process.env.VERIFIER_LEASE_MS || 30_000),
    log,
  };
  const sweepIntervalMs = options.sweepIntervalMs ?? Number(process.env.VERIFIER_SWEEP_INTERVAL_MS || DEFAULT_SWEEP_INTERVAL_MS);
  const firstLookBackMs = Number(process.env.VERIFIER_FIRST_SWEEP_LOOKBACK_MS || DEFAULT_FIRST_LOOK_BACK_MS);
  const idleMs = options.idleMs ?? 1_000;
  let running = false;
  let loop: Promise<unknown> | undefined;

  let lastSettleAt = -Infinity;

  /** Refunds issued in the app: settle unanswered calls, and follow transactions still settling after the verdict. */
  async function followIssuedRefunds() {
    const at = now();
    await recoverUnsettledRecords(database, REFUND_CREATED, gateway, at);
    if (at.getTime() - lastSettleAt < SETTLE_INTERVAL_MS) return;
    lastSettleAt = at.getTime();
    const settling = await database.refundRecord.findMany({ where: { status: "created", refundRef: { not: null }, updatedAt: { lt: new Date(at.getTime() - SETTLE_INTERVAL_MS) } }, take: 200 });
    for (const [shop, records] of groupBy(settling, (record) => record.shop)) {
      const outcomes = await readRefunds(gateway, shop, records.map((r) => r.refundRef!));
      for (const record of records) {
        const outcome = outcomes.get(record.refundRef!);
        if (outcome?.ok) await syncRecordStatus(database, shop, record.refundRef!, outcome.body, at, record);
      }
    }
  }

  const alertGrouping = options.alertGrouping ?? groupingFromEnv();
  const runAlerts = () => runAlertPasses({ db: database, gateway, now, workerId, contract: REFUND_CREATED.contract, grouping: alertGrouping, log });

  async function verifyOnce() {
    const pass = await processDue(deps);
    await followIssuedRefunds();
    let opened = 0;
    for (const shop of await shopsDueForSweep(database, now(), sweepIntervalMs)) {
      const sweep = await sweepShop(database, gateway, REFUND_CREATED, shop, now(), firstLookBackMs);
      opened += sweep.opened;
      if (!sweep.completed) log("sweep paused; it resumes from its cursor", { shop, error: sweep.error });
    }
    return { decided: pass.decided, opened };
  }

  async function runOnce() {
    const verified = await verifyOnce();
    return { ...verified, alerts: await runAlerts() };
  }

  async function run() {
    while (running) {
      try {
        await verifyOnce();
      } catch (error) {
        log("worker pass failed", { error: (error as Error).message });
      }
      const next = await nextDueTime(database).catch(() => null);
      const wait = next ? Math.min(Math.max(next.getTime() - now().getTime(), 20), idleMs) : idleMs;
      if (running) await sleep(wait, options.keepProcessAlive ?? true);
    }
  }

  async function alertLoop() {
    while (running) {
      try {
        await runAlerts();
      } catch (error) {
        log("alert pass failed", { error: (error as Error).message });
      }
      if (running) await sleep(idleMs, options.keepProcessAlive ?? true);
    }
  }

  return {
    deps,
    gateway,
    runOnce,
    runAlerts,
    start() {
      if (running) return;
      running = true;
      loop = Promise.all([run(), alertLoop()]);
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
