// Bench part 9: contract shopify.refund.settled's reads. The measurement runs in a process of its own
// (this file, run as a script): the app's Shopify client binds to the first database and fake
// Shopify it is imported with, and part 2 (readback) imports it in the bench's process first.
import { QUERY_COSTS, SETTLEMENT_TRANSACTIONS_QUERY } from "../app/shopify/admin/documents";
import type { AdminApiStats } from "../fake-shopify/admin-api";
import { row, snapshotStats, statsSince, type BenchRow, type CountedStats } from "./support";
import {
  appModules,
  deliveryOf,
  measureInChild,
  oneAtATime,
  quiet,
  requestsInWords,
  runAsScript,
  verifyCreated,
  virtualGateway,
  virtualShop,
} from "./virtual-shop";

const SHOP = "bench-settlement.myshopify.com";
const DAY_MS = 24 * 3600_000;

/**
 * The baseline's ledger read, one refund a request: the app's PaymentsLedger selection, one entry,
 * found by its transaction's processedAt (the search syntax cannot name an order transaction).
 */
const ONE_ENTRY_QUERY = `query PaymentsLedgerEntry($query: String!) {
  shopifyPaymentsAccount {
    id
    balanceTransactions(first: 1, query: $query, sortKey: PROCESSED_AT) {
      nodes { id type sourceOrderTransactionId transactionDate amount { amount currencyCode } associatedPayout { id status } }
      pageInfo { hasNextPage endCursor }
    }
  }
}`;
/** QUERY_COSTS.paymentsLedger's terms with first: 1: 2 for the connection, 3 for the entry, 1 for the account, 1 for pageInfo. */
const ONE_ENTRY_COST = 7;

/** What the fake Shopify counted for one side, and the refunds it settled. */
type Side = CountedStats & { settled: number };

interface Measured {
  count: number;
  /** Settlement passes run, those that read settlements, those that decided some, and ledger pages read by passes whose transaction read sent nothing. */
  passes: { runs: number; reading: number; deciding: number; ledgerPagesWithoutTransactions: number };
  app: Side;
  baseline: Side;
}

const since = (before: CountedStats, after: AdminApiStats, settled: number): Side => ({ ...statsSince(before, after), settled });

/**
 * 9. A shop's `count` refunds through Shopify Payments, VERIFIED and with their payouts PAID,
 * settled by the worker's settlement pass (one SettlementTransactions read per 166 transactions,
 * one ledger read for many refunds), against the same refunds read one by one. Points and requests
 * as the fake Shopify counts them; time is virtual, as in part 2.
 */
export async function benchSettlement(count: number): Promise<BenchRow[]> {
  const { app, baseline, passes } = await measureInChild<Measured>("bench/settlement.ts", count);
  const ops = requestsInWords;
  const baselineName = "one nodes(ids:) and one balanceTransactions(first: 1) request per refund";
  const note =
    `${count} refunds through Shopify Payments, one shop, one a second, each VERIFIED as it came, read 4 days later with their payouts PAID; ` +
    `Standard plan bucket (1,000 points, 100/s); virtual clock; app: ${passes.runs} settlement passes (${passes.reading} read, ${passes.deciding} decided), ` +
    `${ops(app)}, of which ${passes.ledgerPagesWithoutTransactions} PaymentsLedger pages read in passes whose transaction read sent no request (deferred); ` +
    `one by one: ${ops(baseline)}; THROTTLED answers: app ${app.throttled}, one by one ${baseline.throttled}`;
  return [
    row("9. settlement", "GraphQL requests per settled refund", app.graphqlRequests / count, baseline.graphqlRequests / count, "req", baselineName, note),
    row("9. settlement", "requested query cost per settled refund", app.requestedCost / count, baseline.requestedCost / count, "points", baselineName),
    row("9. settlement", "actual query cost per settled refund", app.actualCost / count, baseline.actualCost / count, "points", baselineName),
  ];
}

async function measure(count: number): Promise<Measured> {
  const world = await virtualShop("settlement", SHOP, "2026-11-20T12:00:00Z");
  const { db, shop, shopify, clock } = world;
  try {
    const { openDeliveryStore, createWorker } = await appModules();
    const gateway = () => virtualGateway(world);
    const reading = await gateway();

    // The refunds, one a second on whole seconds (the baseline finds each by its processing second),
    // each VERIFIED at the created level by the app's read-back as it comes (its stale read window
    // after it): the settlements open in the order of the refunds, as for a shop the app follows.
    const deliveries = openDeliveryStore(world.databaseUrl);
    const refunds: { transactionGids: string[] }[] = [];
    const firstMs = clock.ms;
    for (let i = 0; i < count; i++) {
      const createdAt = new Date(firstMs + (i + 1) * 1000);
      clock.ms = Math.max(clock.ms, createdAt.getTime());
      const order = shop.createOrder({ amount: "80.00", gateway: "shopify_payments", createdAt });
      const refund = shop.createRefund(order.id, { amount: "25.00", createdAt });
      await deliveries.store([await deliveryOf(world, refund, { index: i, triggeredAt: createdAt, receivedAt: world.now() })]);
      refunds.push({ transactionGids: refund.transactionIds.map((id) => `gid://shopify/OrderTransaction/${id}`) });
      await verifyCreated(world, false, reading);
    }
    await deliveries.close();
    await verifyCreated(world, true, reading);
    const verified = await db.operation.count({ where: { status: "VERIFIED" } });
    if (verified !== count) throw new Error(`settlement bench: ${verified} of ${count} refunds verified at the created level`);

    // Four days on: every refund is in the ledger, its payout PAID (after 3 days) and its ARN known (after 1).
    clock.ms += 4 * DAY_MS;
    if (shop.payments.schedule.paidAfterMs >= 4 * DAY_MS) throw new Error("settlement bench: the fake's payouts are not paid after 4 days");
    const api = shopify.api(SHOP);

    // The app's way: the worker's settlement pass, on a full bucket, until it opens and reads nothing more.
    api.fillBucket();
    const worker = createWorker({ db, now: world.now, gateway: await gateway(), workerId: "bench", logger: quiet });
    const appBefore = snapshotStats(api.stats);
    // Each pass's reads, as the fake counted them: a pass whose transaction read sent nothing (the
    // gateway deferred it while the bucket refilled) and still read the ledger is counted apart.
    const pass = { runs: 0, reading: 0, deciding: 0, ledgerPagesWithoutTransactions: 0 };
    const sent = (name: string) => api.stats.byOperation[name] ?? 0;
    while (pass.runs < 100) {
      const [transactionsBefore, ledgerBefore] = [sent("SettlementTransactions"), sent("PaymentsLedger")];
      pass.runs++;
      // A settlement's pass notes each verdict it reaches.
      const { opened, read, noted: decided } = await worker.runSettlements();
      if (read) pass.reading++;
      if (decided) pass.deciding++;
      if (sent("SettlementTransactions") === transactionsBefore) pass.ledgerPagesWithoutTransactions += sent("PaymentsLedger") - ledgerBefore;
      if (opened || read) continue;
      // Nothing due now: on to the next due settlement (a deferred read's retry), if any.
      const next = await db.settlement.findFirst({ where: { nextDueAt: { not: null } }, orderBy: { nextDueAt: "asc" } });
      if (!next?.nextDueAt || next.nextDueAt.getTime() > clock.ms + DAY_MS) break;
      clock.ms = Math.max(clock.ms, next.nextDueAt.getTime());
    }
    const settled = await db.settlement.count({ where: { status: "VERIFIED", money: "paid", payoutStatus: "PAID" } });
    if (settled !== count) {
      const states = await db.settlement.groupBy({ by: ["status", "money"], _count: true });
      throw new Error(`settlement bench: ${settled} of ${count} settlements VERIFIED and paid (${JSON.stringify(states)})`);
    }
    const app = since(appBefore, api.stats, settled);

    // One by one, on a full bucket: per refund its transactions by id, then its balance transaction
    // by its processedAt; waiting on the bucket the same way, retrying a THROTTLED answer.
    api.fillBucket();
    const request = await oneAtATime(world, "settlement");
    const baselineBefore = snapshotStats(api.stats);
    let paid = 0;
    for (const { transactionGids } of refunds) {
      const { nodes } = (await request(
        SETTLEMENT_TRANSACTIONS_QUERY,
        { ids: transactionGids },
        transactionGids.length * QUERY_COSTS.settlementTransactionsPerTransaction,
      )) as {
        nodes: { id: string; processedAt: string }[];
      };
      for (const transaction of nodes) {
        const data = (await request(
          ONE_ENTRY_QUERY,
          { query: `processed_at:>=${transaction.processedAt} processed_at:<=${transaction.processedAt}` },
          ONE_ENTRY_COST,
        )) as {
          shopifyPaymentsAccount: {
            balanceTransactions: { nodes: { type: string; sourceOrderTransactionId: string; associatedPayout: { status: string } }[] };
          };
        };
        const entry = data.shopifyPaymentsAccount.balanceTransactions.nodes[0];
        // The one entry must be this refund's, PAID: the baseline reads the same facts the app judges.
        if (entry?.type !== "REFUND" || String(entry.sourceOrderTransactionId) !== /\d+$/.exec(transaction.id)![0] || entry.associatedPayout.status !== "PAID")
          throw new Error(`settlement bench baseline: transaction ${transaction.id} read ${JSON.stringify(entry)}`);
        paid++;
      }
    }
    if (paid !== count) throw new Error(`settlement bench baseline: ${paid} of ${count} refunds found PAID`);
    return { count, passes: pass, app, baseline: since(baselineBefore, api.stats, paid) };
  } finally {
    await world.close();
  }
}

await runAsScript(import.meta.url, measure);
