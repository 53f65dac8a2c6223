// One side of bench part 6, in its own process so that its peak RSS is its own: the history of one
// shop read through a bulk operation (the app's backfill), or read with paginated `orders` queries
// and then verified by the same code. Prints one JSON line.
import type { PrismaClient } from "@prisma/client";
import { createPrismaClient } from "../app/lib/db/client";
import { runBackfillPass } from "../app/backfill/backfill.server";
import { requestBackfill } from "../app/backfill/request.server";
import { ShopifyGateway } from "../app/shopify/admin/gateway.server";
import { offlineGraphql } from "../app/shopify.server";
import pino from "pino";

export const PAGINATED_QUERY = `query HistoryPage($query: String!, $after: String) {
  orders(first: 8, after: $after, query: $query, sortKey: UPDATED_AT) {
    nodes {
      id
      refunds(first: 5) {
        id createdAt order { id name }
        totalRefundedSet { shopMoney { amount currencyCode } presentmentMoney { amount currencyCode } }
        transactions(first: 5) { nodes { id kind status gateway errorCode processedAt amountSet { presentmentMoney { amount currencyCode } } } }
      }
    }
    pageInfo { hasNextPage endCursor }
  }
}`;

interface PageOrder {
  id: string;
  refunds: ({ id: string; createdAt: string; transactions: { nodes: Record<string, unknown>[] } } & Record<string, unknown>)[];
}

/** The baseline's read: every page of orders updated in the window, staged as the bulk result's lines would be. */
async function stagePaginated(db: PrismaClient, gateway: ShopifyGateway, shop: string, backfillId: string, since: Date): Promise<void> {
  const graphql = await offlineGraphql(shop);
  let after: string | null = null;
  let line = 0;
  for (;;) {
    const body = await graphql(PAGINATED_QUERY, { query: `updated_at:>='${since.toISOString()}'`, after });
    gateway.stats.requests++;
    gateway.stats.requestedCost += body.extensions?.cost?.requestedQueryCost ?? 0;
    if (!body.data) throw new Error(`paginated read refused: ${JSON.stringify(body.errors)}`);
    const orders = (body.data as { orders: { nodes: PageOrder[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } } }).orders;
    const rows = orders.nodes.flatMap((order) =>
      order.refunds.flatMap(({ transactions, ...refund }) => [
        {
          backfillId,
          line: line++,
          kind: "refund",
          agreementGid: refund.id,
          orderGid: order.id,
          refundGid: refund.id,
          createdAt: new Date(refund.createdAt),
          data: JSON.stringify(refund),
        },
        ...transactions.nodes.map((t) => ({ backfillId, line: line++, kind: "transaction", agreementGid: refund.id, data: JSON.stringify(t) })),
      ]),
    );
    if (rows.length) await db.backfillLine.createMany({ data: rows });
    if (!orders.pageInfo.hasNextPage) return;
    after = orders.pageInfo.endCursor;
  }
}

const [mode, shop] = process.argv.slice(2);
const db = createPrismaClient();
const gateway = new ShopifyGateway(offlineGraphql);
const started = performance.now();
const { backfill } = await requestBackfill(db, shop, 60, "cli", new Date());
if (mode === "paginated") {
  await stagePaginated(db, gateway, shop, backfill.id, backfill.since);
  const inWindow = await db.backfillLine.count({ where: { backfillId: backfill.id, kind: "refund", createdAt: { gte: backfill.since, lt: backfill.until } } });
  await db.backfill.update({ where: { id: backfill.id }, data: { state: "verifying", refundsFound: inWindow, readAt: new Date() } });
}
for (;;) {
  await runBackfillPass({ db, gateway, now: () => new Date(), workerId: `bench-${mode}`, logger: pino({ enabled: false }), shop, pollMs: 100 });
  const current = await db.backfill.findUniqueOrThrow({ where: { id: backfill.id } });
  if (current.state === "failed") throw new Error(`bench backfill failed: ${current.message}`);
  if (current.state === "done") {
    const seconds = (performance.now() - started) / 1000;
    const verified = await db.operation.count({ where: { shop, status: { not: "PENDING" } } });
    const maxRssMiB = process.resourceUsage().maxRSS / 1024;
    process.stdout.write(`${JSON.stringify({ seconds, verified, maxRssMiB, requests: gateway.stats.requests, cost: gateway.stats.requestedCost })}\n`);
    break;
  }
  await new Promise((resolve) => setTimeout(resolve, 50));
}
await db.$disconnect();
process.exit(0);
