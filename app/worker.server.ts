import { randomUUID } from "node:crypto";
import type { PrismaClient } from "@prisma/client";
import type { Logger } from "pino";
import { runAlertPasses, type AlertPassResult } from "./alerts/work.server";
import { configuredGrouping, type GroupingTiming } from "./alerts/grouping.server";
import { backfillWork } from "./backfill/backfill.server";
import { REFUND_CREATED } from "./contracts/registry.server";
import db from "./db.server";
import { EXPOSURE } from "./exposure/follow-up.server";
import { followUpPass, type FollowUpPassResult } from "./follow-ups/pass.server";
import { outsideRefundsWork } from "./guardrails/outside.server";
import { config } from "./lib/config/env.server";
import { logger } from "./lib/logging/logger.server";
import { followReadback, issuedRefundsWork } from "./refunds/work.server";
import { SETTLEMENT } from "./settlement/follow-up.server";
import { offlineGraphql } from "./shopify.server";
import { ShopifyGateway } from "./shopify/admin/gateway.server";
import { databaseBuckets } from "./shopify/admin/shared-bucket.server";
import type { ShopGraphql } from "./shopify/admin/transport";
import { deliveriesWaiting, INTAKE_BATCH, intakeWork } from "./verification/intake.server";
import { nextDueTime, processDue, type RuntimeDeps } from "./verification/runtime.server";
import { sweepWork } from "./verification/work.server";
import { leaseMs as configuredLeaseMs } from "./work/claims.server";
import { noteTotal, runRowWork, runShopWork, type Helpers } from "./work/runner.server";
import { sleepUnlessWoken } from "./work/wake";

/** The longest the verification loop spends opening stored deliveries before it reads back what is due. */
const INTAKE_SLICE_MS = 1_000;

/** How often the money loop looks for newly verified refunds and due follow-ups. */
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
  /** How often newly verified refunds get their follow-ups and due ones are read. */
  settlementIntervalMs?: number;
  /** How verdicts decided close together are grouped into one instant alert. */
  alertGrouping?: GroupingTiming;
  /** false inside the app: the worker's timers must not keep a stopping server alive. */
  keepProcessAlive?: boolean;
}

export interface Worker {
  deps: RuntimeDeps;
  gateway: ShopifyGateway;
  /** One round of every pass: stored deliveries, due operations, issued refunds, sweeps, history backfills, the follow-ups, then alerts. */
  runOnce(): Promise<{
    delivered: number;
    decided: number;
    opened: number;
    backfills: number;
    settlements: FollowUpPassResult;
    exposures: FollowUpPassResult;
    alerts: AlertPassResult;
  }>;
  /** The settlement pass alone: newly verified refunds get their settlement, due ones are read. */
  runSettlements(): Promise<FollowUpPassResult>;
  /** The exposure pass alone: newly verified refunds get their exposure, due ones are judged (money at risk twice). */
  runExposures(): Promise<FollowUpPassResult>;
  /** The history backfill pass alone (its own loop: reading a large history never delays a verdict). */
  runBackfills(): Promise<number>;
  /** The alert passes alone (the loop runs them beside verification, so a slow mail server never delays a verdict). */
  runAlerts(): Promise<AlertPassResult>;
  start(): void;
  stop(): Promise<void>;
}

/** What every pass of this worker is given: the job library's helpers, Shopify, and how long a claim holds. */
function workerHelpers(options: WorkerOptions): { helpers: Helpers; gateway: ShopifyGateway; leaseMs: number } {
  const database = options.db ?? db;
  const gateway =
    options.gateway ?? ShopifyGateway.sharing(options.graphqlFor ?? offlineGraphql, databaseBuckets(database, { keepForPeople: KEEP_FOR_PEOPLE }));
  const workerId = options.workerId ?? `worker-${process.pid}-${randomUUID().slice(0, 8)}`;
  const helpers: Helpers = { db: database, now: options.now ?? (() => new Date()), workerId, logger: (options.logger ?? logger).child({ worker: workerId }) };
  return { helpers, gateway, leaseMs: options.leaseMs ?? configuredLeaseMs() };
}

/** One step of a loop on its own: one that fails (a database hiccup) must not hold up the steps after it. */
async function step<T>(log: Logger, name: string, run: () => Promise<T>, fallback: T): Promise<T> {
  try {
    return await run();
  } catch (error) {
    log.error({ err: error, step: name }, "work step failed");
    return fallback;
  }
}

/**
 * The verification loop's round: stored deliveries first, a batch after another for up to a
 * second (a backlog is opened as fast as verification can take it, and due read-backs still get
 * their turn), then the read-backs due, refunds issued in the app, the sweep for lost webhooks and
 * refunds over limits made outside the app.
 */
function verificationRound(options: WorkerOptions, helpers: Helpers, deps: RuntimeDeps) {
  const intake = intakeWork(REFUND_CREATED);
  const issuedRefunds = issuedRefundsWork({ contract: REFUND_CREATED, gateway: deps.gateway });
  const outsideRefunds = outsideRefundsWork();
  const sweep = sweepWork({ contract: REFUND_CREATED, gateway: deps.gateway, sweepIntervalMs: options.sweepIntervalMs });
  const log = helpers.logger;
  return async () => {
    let delivered = 0;
    const until = Date.now() + INTAKE_SLICE_MS;
    for (;;) {
      const opened = await step(log, "intake", async () => (await runRowWork(intake, helpers)).claimed, 0);
      delivered += opened;
      if (opened < INTAKE_BATCH || Date.now() >= until) break;
    }
    const pass = await processDue(deps);
    await step(log, "issued refunds", () => runShopWork(issuedRefunds, helpers), undefined);
    const swept = await step(log, "sweep", () => runShopWork(sweep, helpers), undefined);
    await step(log, "refunds over limits made outside the app", () => runShopWork(outsideRefunds, helpers), undefined);
    return { delivered, decided: pass.decided, opened: swept ? noteTotal(swept.notes, "opened") : 0 };
  };
}

/**
 * The composition root of background work (the top floor, decision 036): each capability declares
 * its work (verification's intake, read-back and sweep, refunds issued in the app, history
 * backfills, the follow-ups of a verified refund, alerts) and the job library (app/work/) runs it;
 * this module wires them into four loops.
 */
export function createWorker(options: WorkerOptions = {}): Worker {
  const { helpers, gateway, leaseMs } = workerHelpers(options);
  const deps: RuntimeDeps = { ...helpers, contract: REFUND_CREATED, gateway, leaseMs, afterReadback: followReadback(helpers.db) };
  const verifyOnce = verificationRound(options, helpers, deps);
  const backfill = backfillWork({ ...helpers, gateway, leaseMs, pollMs: config().BACKFILL_POLL_MS });
  const [settle, expose] = [followUpPass(SETTLEMENT, { gateway, leaseMs }), followUpPass(EXPOSURE, { gateway, leaseMs })];
  const alertGrouping = options.alertGrouping ?? configuredGrouping();
  const runAlerts = () => runAlertPasses({ ...helpers, gateway, contract: REFUND_CREATED.contract, grouping: alertGrouping });
  const runSettlements = () => settle(helpers);
  const runExposures = () => expose(helpers);
  const runBackfills = async () => {
    const pass = await runRowWork(backfill, helpers);
    return pass.claimed - pass.failures - pass.lost;
  };
  // Money moves in hours: the follow-ups have a loop of their own, never in a verdict's way.
  const runFollowUps = async () => {
    await step(helpers.logger, "settlement", runSettlements, undefined);
    await step(helpers.logger, "exposure", runExposures, undefined);
  };
  const loops = workerLoops(options, helpers, { verifyOnce, runAlerts, runBackfills, runFollowUps });
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
    start: loops.start,
    stop: loops.stop,
  };
}

/**
 * The worker's four loops, each a pass then a sleep: verification sleeps until the next operation
 * is due (at most idleMs), not at all while a stored delivery waits for its operation, and wakes
 * when this process stores one; alerts and backfills tick every idleMs; the follow-ups every 30 s.
 */
function workerLoops(
  options: WorkerOptions,
  helpers: Helpers,
  passes: { verifyOnce: () => Promise<unknown>; runAlerts: () => Promise<unknown>; runBackfills: () => Promise<unknown>; runFollowUps: () => Promise<unknown> },
) {
  const idleMs = options.idleMs ?? 1_000;
  const keepAlive = options.keepProcessAlive ?? true;
  let running = false;
  let loops: Promise<unknown> | undefined;
  const loop = async (name: string, pass: () => Promise<unknown>, wait: () => Promise<number>, wakeable = false) => {
    while (running) {
      try {
        await pass();
      } catch (error) {
        helpers.logger.error({ err: error, loop: name }, "pass failed");
      }
      if (!running) break;
      const ms = await wait();
      await (wakeable ? sleepUnlessWoken(ms, keepAlive) : sleep(ms, keepAlive));
    }
  };
  const untilNextDue = async () => {
    if (await deliveriesWaiting(helpers.db, helpers.now()).catch(() => false)) return 0;
    const next = await nextDueTime(helpers.db).catch(() => null);
    return next ? Math.min(Math.max(next.getTime() - helpers.now().getTime(), 20), idleMs) : idleMs;
  };
  return {
    start() {
      if (running) return;
      running = true;
      loops = Promise.all([
        loop("worker", passes.verifyOnce, untilNextDue, true),
        loop("alert", passes.runAlerts, async () => idleMs),
        loop("backfill", passes.runBackfills, async () => idleMs),
        loop("money", passes.runFollowUps, async () => options.settlementIntervalMs ?? SETTLEMENT_INTERVAL_MS),
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
