import type { PrismaClient } from "@prisma/client";
import type { LoadedContract } from "../contracts/load";
import type { ShopifyGateway } from "../shopify/admin/gateway.server";
import { SWEEP_REFUNDS_PER_ORDER } from "../shopify/admin/documents";
import { loadOrderRefunds, loadSweepPage, type SweptOrder } from "../shopify/admin/refunds.server";
import { statedAmount } from "./stated-amount";
import { openOperation } from "./operations.server";
import { config } from "../lib/config/env.server";

/** Sweeps overlap by this much, so an order updated during the last sweep is not missed. */
const OVERLAP_MS = 5 * 60_000;

export interface SweepResult {
  /** The sweep reached its last page. */
  completed: boolean;
  ordersSeen: number;
  opened: number;
  /** Why it stopped before the last page (it resumes there on the next pass). */
  error?: string;
}

interface SweptRefund {
  id: string;
  createdAt?: string | null;
  transactions: { nodes: { kind: string; amountSet: { presentmentMoney: { amount: string; currencyCode: string } } }[]; pageInfo: { hasNextPage: boolean } };
}

/** One shop's sweep: the database, Shopify, the contract its operations are opened under, the shop and the sweep's instant. */
export interface ShopSweep {
  db: PrismaClient;
  gateway: ShopifyGateway;
  contract: LoadedContract;
  shop: string;
  now: Date;
}

/** Opens an operation for each refund of a swept order made since `createdFrom` that has none. */
async function openSwept(sweep: ShopSweep, order: { id: string; name: string; refunds: SweptRefund[] }, createdFrom: Date): Promise<number> {
  const { db, contract, shop, now } = sweep;
  let opened = 0;
  for (const refund of order.refunds) {
    // An order updated now can hold refunds made long ago: those are the history's, not a lost webhook.
    if (!refund.createdAt || Date.parse(refund.createdAt) < createdFrom.getTime()) continue;
    const facts = {
      shop,
      refundGid: refund.id,
      orderGid: order.id,
      orderName: order.name,
      origin: "reconciliation" as const,
      startedAt: new Date(refund.createdAt),
      ...statedAmount(refund.transactions.nodes, !refund.transactions.pageInfo.hasNextPage),
    };
    if (await openOperation(db, contract, facts, now)) opened++;
  }
  return opened;
}

/** Every refund of a swept order: the page's list, or, when it came back full, the whole order read alone. */
async function refundsOf(
  gateway: ShopifyGateway,
  shop: string,
  order: SweptOrder,
): Promise<{ ok: true; refunds: SweptRefund[] } | { ok: false; error: string }> {
  if (order.refunds.length < SWEEP_REFUNDS_PER_ORDER) return { ok: true, refunds: order.refunds };
  const whole = await loadOrderRefunds(gateway, shop, order.id);
  if (!whole.ok) return { ok: false, error: whole.message };
  return { ok: true, refunds: whole.data?.refunds ?? [] };
}

/**
 * Webhooks can be lost: reads the orders updated since the last complete sweep and opens an
 * operation for every refund that has none. The sweep is durable: Shopify's cursor is stored
 * after each page, so a throttled bucket, a crash or a restart resumes it where it stopped
 * (redoing at most one page, which opens nothing twice). Only a complete sweep moves the window.
 */
export async function sweepShop(
  sweep: ShopSweep,
  // A shop's first sweep looks back this far (older history is the backfill's): VERIFIER_FIRST_SWEEP_LOOKBACK_MS.
  firstLookBackMs = config().VERIFIER_FIRST_SWEEP_LOOKBACK_MS,
): Promise<SweepResult> {
  const { db, gateway, shop, now } = sweep;
  let state = await db.shopState.findUnique({ where: { shop } });
  if (!state?.sweepStartedAt || !state.sweepSince) {
    const since = new Date((state?.lastSweepAt?.getTime() ?? now.getTime() - firstLookBackMs + OVERLAP_MS) - OVERLAP_MS);
    const begin = { sweepStartedAt: now, sweepSince: since, sweepCursor: null };
    state = await db.shopState.upsert({ where: { shop }, create: { shop, ...begin }, update: begin });
  }
  const query = `updated_at:>='${state.sweepSince!.toISOString()}'`;
  // Refunds made before the sweep's window, or before the end of a history backfill's, are not the sweep's to open.
  // A failed backfill verified nothing: its window stays the sweep's.
  const history = await db.backfill.findFirst({ where: { shop, state: { not: "failed" } }, orderBy: { until: "desc" }, select: { until: true } });
  const createdFrom = new Date(Math.max(state.sweepSince!.getTime(), history?.until.getTime() ?? 0));
  const result: SweepResult = { completed: false, ordersSeen: 0, opened: 0 };
  let cursor = state.sweepCursor;
  do {
    const page = await loadSweepPage(gateway, shop, query, cursor);
    if (!page.ok) return { ...result, error: page.message };
    for (const order of page.data.nodes) {
      const refunds = await refundsOf(gateway, shop, order);
      if (!refunds.ok) return { ...result, error: refunds.error };
      result.ordersSeen++;
      result.opened += await openSwept(sweep, { id: order.id, name: order.name, refunds: refunds.refunds }, createdFrom);
    }
    cursor = page.data.pageInfo.hasNextPage ? (page.data.pageInfo.endCursor ?? null) : null;
    if (cursor) await db.shopState.update({ where: { shop }, data: { sweepCursor: cursor } });
  } while (cursor);
  await db.shopState.update({
    where: { shop },
    data: { lastSweepAt: state.sweepStartedAt, sweepCompletedAt: now, sweepStartedAt: null, sweepSince: null, sweepCursor: null, sweepRequested: false },
  });
  return { ...result, completed: true };
}

/** Shops with an offline session whose sweep is due: one in progress, the interval passed, or asked for. */
export async function shopsDueForSweep(db: PrismaClient, now: Date, intervalMs: number): Promise<string[]> {
  const installed = await db.session.findMany({ where: { isOnline: false }, select: { shop: true }, distinct: ["shop"] });
  const states = new Map((await db.shopState.findMany({ where: { shop: { in: installed.map((s) => s.shop) } } })).map((s) => [s.shop, s]));
  return installed
    .map((s) => s.shop)
    .filter((shop) => {
      const state = states.get(shop);
      if (state?.uninstalledAt) return false;
      return !state?.lastSweepAt || state.sweepStartedAt || state.sweepRequested || state.lastSweepAt.getTime() + intervalMs <= now.getTime();
    });
}

export async function requestSweep(db: PrismaClient, shop: string): Promise<void> {
  await db.shopState.upsert({ where: { shop }, create: { shop, sweepRequested: true }, update: { sweepRequested: true } });
}
