import type { PrismaClient } from "@prisma/client";
import type { LoadedContract } from "../contracts/load";
import { sumDecimals } from "../money/decimal";
import { openOperation } from "./operations.server";
import type { ShopifyReader } from "./readback.server";

/**
 * Orders updated since the last sweep, with their refunds. Sized to stay well under the
 * 1,000-point limit: 2 + 10 orders × (1 + 5 refunds × 14) ≈ 712 points requested.
 */
export const REFUND_SWEEP_QUERY = `#graphql
query RefundSweep($query: String!, $after: String) {
  orders(first: 10, after: $after, query: $query, sortKey: UPDATED_AT) {
    nodes {
      id
      name
      refunds(first: 5) {
        id
        createdAt
        totalRefundedSet { shopMoney { amount currencyCode } }
        transactions(first: 3) { nodes { kind status amountSet { shopMoney { amount currencyCode } } } }
      }
    }
    pageInfo { hasNextPage endCursor }
  }
}`;
const SWEEP_COST = 712;
/** Sweeps overlap by this much, so an order updated during the last sweep is not missed. */
const OVERLAP_MS = 5 * 60_000;
/** A shop's first sweep looks back this far. */
const FIRST_LOOK_BACK_MS = 24 * 3600_000;
export const DEFAULT_SWEEP_INTERVAL_MS = 15 * 60_000;

interface SweptRefund {
  id: string;
  createdAt: string | null;
  totalRefundedSet: { shopMoney: { amount: string; currencyCode: string } };
  transactions: { nodes: { kind: string; amountSet: { shopMoney: { amount: string; currencyCode: string } } }[] };
}
interface SweptOrder {
  id: string;
  name: string;
  refunds: SweptRefund[];
}

export interface SweepResult {
  ok: boolean;
  ordersSeen: number;
  opened: number;
  error?: string;
}

/**
 * Webhooks can be lost: asks Shopify for orders updated since the last sweep and opens an
 * operation for every refund that has none. The amount is what the refund's REFUND
 * transactions add up to, as for a webhook. The cursor moves only after a complete sweep.
 */
export async function sweepShop(db: PrismaClient, reader: ShopifyReader, contract: LoadedContract, shop: string, now: Date): Promise<SweepResult> {
  const state = await db.shopState.findUnique({ where: { shop } });
  const since = new Date((state?.lastSweepAt?.getTime() ?? now.getTime() - FIRST_LOOK_BACK_MS + OVERLAP_MS) - OVERLAP_MS);
  const query = `updated_at:>='${since.toISOString()}'`;
  const result: SweepResult = { ok: true, ordersSeen: 0, opened: 0 };
  let after: string | null = null;
  do {
    const answer = await reader.query(shop, REFUND_SWEEP_QUERY, { query, after }, SWEEP_COST);
    if (!answer.ok) return { ...result, ok: false, error: answer.error };
    const page = (answer.body.data as { orders?: { nodes: SweptOrder[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } } } | undefined)?.orders;
    if (!page) return { ...result, ok: false, error: "malformed response: no orders" };
    for (const order of page.nodes) {
      result.ordersSeen++;
      for (const refund of order.refunds) {
        if (!refund.createdAt) continue;
        const money = refund.transactions.nodes.filter((t) => t.kind === "REFUND").map((t) => t.amountSet.shopMoney);
        const opened = await openOperation(
          db,
          contract,
          {
            shop,
            refundGid: refund.id,
            orderGid: order.id,
            orderName: order.name,
            origin: "reconciliation",
            amount: sumDecimals(money.map((m) => m.amount)),
            currency: money[0]?.currencyCode ?? refund.totalRefundedSet.shopMoney.currencyCode,
            startedAt: new Date(refund.createdAt),
          },
          now,
        );
        if (opened) result.opened++;
      }
    }
    after = page.pageInfo.hasNextPage ? page.pageInfo.endCursor : null;
  } while (after);
  await db.shopState.upsert({
    where: { shop },
    create: { shop, lastSweepAt: now, sweepRequested: false },
    update: { lastSweepAt: now, sweepRequested: false },
  });
  return result;
}

/** Shops with an offline session whose sweep is due (interval passed, or asked for). */
export async function shopsDueForSweep(db: PrismaClient, now: Date, intervalMs: number): Promise<string[]> {
  const installed = await db.session.findMany({ where: { isOnline: false }, select: { shop: true }, distinct: ["shop"] });
  const states = new Map((await db.shopState.findMany({ where: { shop: { in: installed.map((s) => s.shop) } } })).map((s) => [s.shop, s]));
  return installed
    .map((s) => s.shop)
    .filter((shop) => {
      const state = states.get(shop);
      if (state?.uninstalledAt) return false;
      return !state?.lastSweepAt || state.sweepRequested || state.lastSweepAt.getTime() + intervalMs <= now.getTime();
    });
}

export async function requestSweep(db: PrismaClient, shop: string): Promise<void> {
  await db.shopState.upsert({ where: { shop }, create: { shop, sweepRequested: true }, update: { sweepRequested: true } });
}
