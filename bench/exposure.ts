// Bench part 11: contract shopify.refund.exposure's reads (money at risk twice, issue 43). The
// measurement runs in a process of its own (this file, run as a script), as part 9's does: the
// app's Shopify client binds to the first database and fake Shopify it is imported with.
import { DISPUTE_DETAILS_QUERY, ORDER_EXPOSURE_QUERY } from "../app/shopify/admin/documents";
import { paymentsDisputeGid } from "../app/exposure/order-exposure";
import { requestedQueryCost } from "../fake-shopify/cost";
import { row, snapshotStats, statsSince, type BenchRow, type CountedStats } from "./support";
import * as virtual from "./virtual-shop";

const SHOP = "bench-exposure.myshopify.com";
const DISPUTES_SCOPE = "read_shopify_payments_disputes";
/** Every 20th order gets a chargeback after its refund (5 %), every 5th of those says the credit was not processed. */
const DISPUTE_EVERY = 20;
/** Every 50th order (none of those disputed) is refunded to store credit (2 %); every other one of those also to the card, past what was paid. */
const STORE_CREDIT_EVERY = 50;

/** The selection inside `... on <type> {` of a nodes(ids:) document: the baseline reads the same fields one node a request. */
function selectionOf(document: string, type: string): string {
  const start = document.indexOf(`... on ${type} {`);
  if (start < 0) throw new Error(`exposure bench: no ... on ${type} in the app's document`);
  const open = document.indexOf("{", start);
  let depth = 0;
  for (let i = open; i < document.length; i++) {
    if (document[i] === "{") depth++;
    if (document[i] === "}" && --depth === 0) return document.slice(open + 1, i);
  }
  throw new Error(`exposure bench: unbalanced ... on ${type}`);
}

/** The baseline's reads: ORDER_EXPOSURE_QUERY's selection on one order(id:), DISPUTE_DETAILS_QUERY's on one dispute(id:). */
const ONE_ORDER_QUERY = `query OneOrderExposure($id: ID!) {\n  order(id: $id) {${selectionOf(ORDER_EXPOSURE_QUERY, "Order")}}\n}`;
const ONE_DISPUTE_QUERY = `query OneDisputeDetails($id: ID!) {\n  dispute(id: $id) {${selectionOf(DISPUTE_DETAILS_QUERY, "ShopifyPaymentsDispute")}}\n}`;

/** What the fake Shopify counted for one side. */
type Side = CountedStats;

interface Measured {
  count: number;
  disputes: number;
  storeCredit: number;
  /** Exposure passes run for the first judgement and for the re-read a day later. */
  passes: { first: number; daily: number };
  /** Exposures by status and reason after each read. */
  judged: { first: Record<string, number>; daily: Record<string, number> };
  app: { first: Side; daily: Side };
  baseline: { first: Side; daily: Side };
}

const since = statsSince;

/**
 * 11. A shop's `count` refunds, VERIFIED by the app's read-back, 5 % of their orders disputed after
 * the refund and 2 % refunded to store credit, judged by the worker's exposure pass (the orders in
 * nodes(ids:) batches, the disputes' details in one request per batch of the shop's), then read
 * again a day later; against the same orders read one order(id:) request each and each dispute's
 * details one dispute(id:) request each. Points and requests as the fake Shopify counts them;
 * time is virtual, as in parts 2 and 9.
 */
export async function benchExposure(count: number): Promise<BenchRow[]> {
  const m = await virtual.measureInChild<Measured>("bench/exposure.ts", count);
  const ops = virtual.requestsInWords;
  const statuses = (judged: Record<string, number>) =>
    Object.entries(judged)
      .map(([what, n]) => `${n} ${what}`)
      .join(", ");
  const baselineName = "one order(id:) request per refund (the same selection) and one dispute(id:) request per dispute";
  const note =
    `${count} refunds, one shop, each VERIFIED by the app's read-back, ${m.disputes} of their orders disputed after the refund, ` +
    `${m.storeCredit} refunded to store credit (half of them also to the card, past what was paid); Standard plan bucket (1,000 points, 100/s); virtual clock; ` +
    `first judgement: ${m.passes.first} exposure passes, ${ops(m.app.first)} (${statuses(m.judged.first)}); one by one: ${ops(m.baseline.first)}; ` +
    `read again a day later: ${m.passes.daily} passes, ${ops(m.app.daily)} (${statuses(m.judged.daily)}); one by one: ${ops(m.baseline.daily)}; ` +
    `THROTTLED answers: app ${m.app.first.throttled + m.app.daily.throttled}, one by one ${m.baseline.first.throttled + m.baseline.daily.throttled}`;
  const per = (n: number) => n / count;
  const part = "11. exposure";
  return [
    row(part, "GraphQL requests per judged refund", per(m.app.first.graphqlRequests), per(m.baseline.first.graphqlRequests), "req", baselineName, note),
    row(part, "requested query cost per judged refund", per(m.app.first.requestedCost), per(m.baseline.first.requestedCost), "points", baselineName),
    row(part, "actual query cost per judged refund", per(m.app.first.actualCost), per(m.baseline.first.actualCost), "points", baselineName),
    row(part, "daily re-read: GraphQL requests per refund", per(m.app.daily.graphqlRequests), per(m.baseline.daily.graphqlRequests), "req", baselineName),
    row(part, "daily re-read: requested query cost per refund", per(m.app.daily.requestedCost), per(m.baseline.daily.requestedCost), "points", baselineName),
    row(part, "daily re-read: actual query cost per refund", per(m.app.daily.actualCost), per(m.baseline.daily.actualCost), "points", baselineName),
  ];
}

async function measure(count: number): Promise<Measured> {
  // The disputes' details need the approval scope; with it Shopify would send disputes/* webhooks,
  // but the fake has no webhook target here: every read below is the pass's own, none a delivery's.
  const world = await virtual.virtualShop("exposure", SHOP, "2026-11-20T12:00:00Z", (shop) => shop.grantedScopes.add(DISPUTES_SCOPE));
  const { db, shop, shopify, clock } = world;
  try {
    const { openDeliveryStore, createWorker } = await virtual.appModules();
    const gateway = () => virtual.virtualGateway(world);

    // The refunds, one a second, delivered as Shopify sends refunds/create and VERIFIED by the
    // app's read-back (its stale read window after each), as for a shop the app follows.
    const orders: { id: bigint; gid: string }[] = [];
    const deliveries = openDeliveryStore(world.databaseUrl);
    let storeCredit = 0;
    for (let i = 0; i < count; i++) {
      const createdAt = new Date(clock.ms + (i + 1) * 1000);
      const order = shop.createOrder({ amount: "80.00", gateway: "shopify_payments", createdAt });
      const credited = i % STORE_CREDIT_EVERY === STORE_CREDIT_EVERY / 2 - 1;
      if (credited) storeCredit++;
      const refund = shop.createRefund(
        order.id,
        !credited
          ? { amount: "25.00", createdAt }
          : storeCredit % 2
            ? { storeCredit: "25.00", createdAt }
            : { amount: "60.00", storeCredit: "40.00", createdAt },
      );
      const delivery = await virtual.deliveryOf(world, refund, { index: i, triggeredAt: createdAt, receivedAt: createdAt });
      await deliveries.store([delivery]);
      orders.push({ id: order.id, gid: delivery.orderGid });
    }
    await deliveries.close();
    clock.ms += (count + 1) * 1000;
    await virtual.verifyCreated(world, true, await gateway());
    const verified = await db.operation.count({ where: { status: "VERIFIED" } });
    if (verified !== count) {
      const states = await db.operation.groupBy({ by: ["status", "reason"], _count: true });
      throw new Error(`exposure bench: ${verified} of ${count} refunds verified at the created level (${JSON.stringify(states)})`);
    }

    // An hour on, chargebacks come for 5 % of the orders, after their refunds.
    clock.ms += 3600_000;
    let disputes = 0;
    for (const [i, order] of orders.entries())
      if (i % DISPUTE_EVERY === DISPUTE_EVERY - 1) {
        disputes++;
        shop.createDispute(order.id, { amount: "80.00", reason: disputes % 5 ? "FRAUDULENT" : "CREDIT_NOT_PROCESSED" });
      }

    const api = shopify.api(SHOP);
    const worker = createWorker({ db, now: world.now, gateway: await gateway(), workerId: "bench", logger: virtual.quiet });
    const judgedAtLeast = (attempts: number) => db.exposure.count({ where: { attempts: { gte: attempts } } });
    const outcomes = async () =>
      Object.fromEntries(
        (await db.exposure.groupBy({ by: ["status", "reason"], _count: true, orderBy: [{ status: "asc" }, { reason: "asc" }] })).map((g) => [
          `${g.status} ${g.reason ?? ""}`.trim(),
          g._count,
        ]),
      );
    /** The worker's exposure pass, again and again, on to the next due exposure when one has nothing to do, until every exposure is judged `attempts` times. */
    const exposeUntil = async (attempts: number) => {
      for (let passes = 1; passes <= 1000; passes++) {
        const { opened, read } = await worker.runExposures();
        if ((await judgedAtLeast(attempts)) === count) return passes;
        if (opened || read) continue;
        const next = await db.exposure.findFirst({ where: { attempts: { lt: attempts }, nextDueAt: { not: null } }, orderBy: { nextDueAt: "asc" } });
        if (!next?.nextDueAt) break;
        clock.ms = Math.max(clock.ms, next.nextDueAt.getTime());
      }
      throw new Error(`exposure bench: ${await judgedAtLeast(attempts)} of ${count} exposures judged ${attempts} times (${JSON.stringify(await outcomes())})`);
    };

    // One by one, on a full bucket, waiting on the bucket the same way and retrying a THROTTLED answer:
    // each refund's order alone, then each of its disputes' details alone.
    const send = await virtual.oneAtATime(world, "exposure");
    const request = (query: string, variables: Record<string, unknown>) => send(query, variables, requestedQueryCost(query, variables));
    const oneByOne = async (): Promise<Side> => {
      api.fillBucket();
      const before = snapshotStats(api.stats);
      let [read, details] = [0, 0];
      for (const { gid } of orders) {
        const { order } = (await request(ONE_ORDER_QUERY, { id: gid })) as { order: { refunds: unknown[]; disputes: { id: string }[] } | null };
        if (!order?.refunds.length) throw new Error(`exposure bench baseline: order ${gid} read ${JSON.stringify(order)}`);
        read++;
        for (const summary of order.disputes) {
          const { dispute } = (await request(ONE_DISPUTE_QUERY, { id: paymentsDisputeGid(summary.id) })) as {
            dispute: { reasonDetails: { reason: string } } | null;
          };
          if (!dispute?.reasonDetails.reason) throw new Error(`exposure bench baseline: dispute ${summary.id} read ${JSON.stringify(dispute)}`);
          details++;
        }
      }
      // The baseline reads the same facts the app judges: every order, every dispute's details.
      if (read !== count || details !== disputes) throw new Error(`exposure bench baseline: ${read} orders and ${details} disputes read`);
      return since(before, api.stats);
    };

    // The app's way: the worker's exposure pass opens every verified refund's exposure and judges it.
    api.fillBucket();
    let before = snapshotStats(api.stats);
    const firstPasses = await exposeUntil(1);
    const appFirst = since(before, api.stats);
    const judgedFirst = await outcomes();
    const baselineFirst = await oneByOne();

    // A day later: every open exposure is due again (the chargeback whose webhook was lost), read again.
    const latest = await db.exposure.aggregate({ _max: { nextDueAt: true } });
    clock.ms = Math.max(clock.ms, latest._max.nextDueAt!.getTime());
    api.fillBucket();
    before = snapshotStats(api.stats);
    const dailyPasses = await exposeUntil(2);
    const appDaily = since(before, api.stats);
    const judgedDaily = await outcomes();
    const baselineDaily = await oneByOne();

    return {
      count,
      disputes,
      storeCredit,
      passes: { first: firstPasses, daily: dailyPasses },
      judged: { first: judgedFirst, daily: judgedDaily },
      app: { first: appFirst, daily: appDaily },
      baseline: { first: baselineFirst, daily: baselineDaily },
    };
  } finally {
    await world.close();
  }
}

await virtual.runAsScript(import.meta.url, measure);
