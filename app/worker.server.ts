import { randomUUID } from "node:crypto";
import type { PrismaClient } from "@prisma/client";
import { REFUND_CREATED, REFUND_EXPOSURE, REFUND_SETTLED } from "./contracts/registry.server";
import db from "./db.server";
import { logger } from "./lib/logging/logger.server";
import { ShopifyGateway } from "./shopify/admin/gateway.server";
import { databaseBuckets } from "./shopify/admin/shared-bucket.server";
import { offlineGraphql } from "./shopify.server";
import type { ShopGraphql } from "./shopify/admin/transport";
import { runAlertPasses, type AlertPassResult } from "./alerts/work.server";
import { backfillWork } from "./backfill/backfill.server";
import { configuredGrouping, type GroupingTiming } from "./alerts/grouping.server";
import { followReadback, issuedRefundsWork } from "./refunds/work.server";
import { nextDueTime, processDue, type RuntimeDeps } from "./verification/runtime.server";
import { sweepWork } from "./verification/work.server";
import { settlementPass } from "./settlement/work.server";
import { exposurePass } from "./exposure/work.server";
import { outsideRefundsWork } from "./guardrails/outside.server";
import { deliveriesWaiting, INTAKE_BATCH, intakeWork } from "./verification/intake.server";
import { sleepUnlessWoken } from "./work/wake";
import { config } from "./lib/config/env.server";
import { leaseMs as configuredLeaseMs } from "./work/claims.server";
import { noteTotal, runRowWork, runShopWork, type Helpers } from "./work/runner.server";
import type { Logger } from "pino";

type SettlementPassResult = Awaited<ReturnType<ReturnType<typeof settlementPass>>>;
type ExposurePassResult = Awaited<ReturnType<ReturnType<typeof exposurePass>>>;

/** The longest the verification loop spends opening stored deliveries before it reads back what is due. */
const INTAKE_SLICE_MS = 1_000;

/** How often the settlement loop looks for newly verified refunds and due settlements. */
const SETTLEMENT_INTERVAL_MS = 30_000;

/** The share of each shop's Shopify bucket background work leaves to requests a person waits on. */
const KEEP_FOR_PEOPLE = 0.1;

function sleep(ms: number, keepProcessAlive: boolean) {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    if (!keepProcessAlive) timer.unref();
  });
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
  /** Where the worker logs (default: the app's logger); each pass logs through a child with its shop and ids bound. */
  logger?: Logger;
  /** How often newly verified refunds get their settlement and due settlements are read. */
  settlementIntervalMs?: number;
  /** How verdicts decided close together are grouped into one instant alert. */
  alertGrouping?: GroupingTiming;
  /** false inside the app: the worker's timers must not keep a stopping server alive. */
  keepProcessAlive?: boolean;
}

export interface Worker {
  deps: RuntimeDeps;
  gateway: ShopifyGateway;
  /** One round of every pass: stored deliveries, due operations, issued refunds, sweeps, history backfills, then alerts. */
  runOnce(): Promise<{
    delivered: number;
    decided: number;
    opened: number;
    backfills: number;
    settlements: SettlementPassResult;
    exposures: ExposurePassResult;
    alerts: AlertPassResult;
  }>;
  /** The settlement pass alone: newly verified refunds get their settlement, due ones are read. */
  runSettlements(): Promise<SettlementPassResult>;
  /** The exposure pass alone: newly verified refunds get their exposure, due ones are judged (money at risk twice). */
  runExposures(): Promise<ExposurePassResult>;
  /** The history backfill pass alone (its own loop: reading a large history never delays a verdict). */
  runBackfills(): Promise<number>;
  /** The alert passes alone (the loop runs them beside verification, so a slow mail server never delays a verdict). */
  runAlerts(): Promise<AlertPassResult>;
  start(): void;
  stop(): Promise<void>;
}

/**
 * The composition root of background work: each capability supplies its work (verification's
 * intake, read-back and sweep, refunds issued in the app, settling, history backfills, alerts)
 * and the runner (runner.server.ts) runs it; this module wires them into four loops, so that no
 * capability imports another's.
 */
export function createWorker(options: WorkerOptions = {}): Worker {
  const now = options.now ?? (() => new Date());
  const database = options.db ?? db;
  const gateway =
    options.gateway ?? ShopifyGateway.sharing(options.graphqlFor ?? offlineGraphql, databaseBuckets(database, { keepForPeople: KEEP_FOR_PEOPLE }));
  const workerId = options.workerId ?? `worker-${process.pid}-${randomUUID().slice(0, 8)}`;
  const log = (options.logger ?? logger).child({ worker: workerId });
  const helpers: Helpers = { db: database, now, workerId, logger: log };
  const leaseMs = options.leaseMs ?? configuredLeaseMs();
  const deps: RuntimeDeps = { ...helpers, contract: REFUND_CREATED, gateway, leaseMs, afterReadback: followReadback(database) };
  const intake = intakeWork(REFUND_CREATED);
  const issuedRefunds = issuedRefundsWork({ contract: REFUND_CREATED, gateway });
  const outsideRefunds = outsideRefundsWork();
  const sweep = sweepWork({ contract: REFUND_CREATED, gateway, sweepIntervalMs: options.sweepIntervalMs });
  const backfill = backfillWork({ ...helpers, gateway, leaseMs, pollMs: config().BACKFILL_POLL_MS });
  const settle = settlementPass({ gateway, contract: REFUND_SETTLED, leaseMs });
  const expose = exposurePass({ gateway, contract: REFUND_EXPOSURE, leaseMs });
  const alertGrouping = options.alertGrouping ?? configuredGrouping();
  const runAlerts = () => runAlertPasses({ ...helpers, gateway, contract: REFUND_CREATED.contract, grouping: alertGrouping });
  const runSettlements = () => settle(helpers);
  const runExposures = () => expose(helpers);
  const runBackfills = async () => {
    const pass = await runRowWork(backfill, helpers);
    return pass.claimed - pass.failures - pass.lost;
  };
  const idleMs = options.idleMs ?? 1_000;
  const keepAlive = options.keepProcessAlive ?? true;
  let running = false;
  let loops: Promise<unknown> | undefined;

  /** One step of a loop on its own: one that fails (a database hiccup) must not hold up the steps after it. */
  async function step<T>(name: string, run: () => Promise<T>, fallback: T): Promise<T> {
    try {
      return await run();
    } catch (error) {
      log.error({ err: error, step: name }, "work step failed");
      return fallback;
    }
  }

  async function verifyOnce() {
    // Stored deliveries first, a batch after another for up to a second: a backlog is opened as
    // fast as verification can take it, and due read-backs still get their turn.
    let delivered = 0;
    const until = Date.now() + INTAKE_SLICE_MS;
    for (;;) {
      const opened = await step("intake", async () => (await runRowWork(intake, helpers)).claimed, 0);
      delivered += opened;
      if (opened < INTAKE_BATCH || Date.now() >= until) break;
    }
    const pass = await processDue(deps);
    await step("issued refunds", () => runShopWork(issuedRefunds, helpers), undefined);
    const swept = await step("sweep", () => runShopWork(sweep, helpers), undefined);
    const opened = swept ? noteTotal(swept.notes, "opened") : 0;
    await step("refunds over limits made outside the app", () => runShopWork(outsideRefunds, helpers), undefined);
    return { delivered, decided: pass.decided, opened };
  }

  async function loop(name: string, pass: () => Promise<unknown>, wait: () => Promise<number>, wakeable = false) {
    while (running) {
      try {
        await pass();
      } catch (error) {
        log.error({ err: error, loop: name }, "pass failed");
      }
      if (!running) break;
      const ms = await wait();
      await (wakeable ? sleepUnlessWoken(ms, keepAlive) : sleep(ms, keepAlive));
    }
  }

  // Verification sleeps until the next operation is due (at most idleMs), not at all while a stored
  // delivery waits for its operation, and wakes when this process stores one; alerts tick every idleMs.
  const untilNextDue = async () => {
    if (await deliveriesWaiting(database, now()).catch(() => false)) return 0;
    const next = await nextDueTime(database).catch(() => null);
    return next ? Math.min(Math.max(next.getTime() - now().getTime(), 20), idleMs) : idleMs;
  };

  return {
    deps,
    gateway,
    async runOnce() {
      const verified = await verifyOnce();
      const backfills = await runBackfills();
      const settlements = await runSettlements();
      const exposures = await runExposures();
      return { ...verified, backfills, settlements, exposures, alerts: await runAlerts() };
    },
    runAlerts,
    runSettlements,
    runExposures,
    runBackfills,
    start() {
      if (running) return;
      running = true;
      loops = Promise.all([
        loop("worker", verifyOnce, untilNextDue, true),
        loop("alert", runAlerts, async () => idleMs),
        loop("backfill", runBackfills, async () => idleMs),
        // Money moves in hours: settlements and exposure have a loop of their own, never in a verdict's way.
        loop(
          "money",
          async () => {
            await step("settlement", runSettlements, undefined);
            await step("exposure", runExposures, undefined);
          },
          async () => options.settlementIntervalMs ?? SETTLEMENT_INTERVAL_MS,
        ),
      ]);
    },
    async stop() {
      running = false;
      await loops;
    },
  };
}

declare global {
  // The in-app worker, once per process (Vite's dev server re-imports modules).
  var refundVerifierWorker: Worker | undefined;
}

/** Called by the server entry: the worker runs inside the app unless VERIFIER_WORKER=off (then run `npm run worker` beside it). */
export function startInAppWorker(): void {
  if (config().VERIFIER_WORKER === "off" || globalThis.refundVerifierWorker) return;
  const worker = createWorker({ keepProcessAlive: false });
  globalThis.refundVerifierWorker = worker;
  worker.start();
  for (const signal of ["SIGTERM", "SIGINT"] as const) process.once(signal, () => void worker.stop());
}
