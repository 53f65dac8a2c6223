import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dataPath, embeddedFetch } from "../support/embedded";
import { startVerificationHarness, type VerificationHarness } from "../support/verification";
import { onPostgres } from "../support/database";

let h: VerificationHarness;
let asShop: ReturnType<typeof embeddedFetch>;

beforeAll(async () => {
  h = await startVerificationHarness("idempotent-shop.myshopify.com");
  asShop = embeddedFetch(h.app.url, h.domain, "77");
});
afterAll(async () => h.close());

const api = () => h.app.shopify.api(h.domain);
const orderGid = (id: bigint) => `gid://shopify/Order/${id}`;
const refundForm = (orderId: bigint, fields: Record<string, string>) =>
  asShop(dataPath(`/app/orders/${orderId}/refund`, "routes/app.orders.$orderId.refund"), { method: "POST", body: new URLSearchParams(fields) });
const issue = (orderId: bigint, amount: string) => refundForm(orderId, { intent: "issue", amount, note: "Damaged in transit", formToken: randomUUID() });
/** A further refund on an order refunded minutes ago: the person said "yes, another refund". */
const issueAnother = (orderId: bigint, amount: string) =>
  refundForm(orderId, { intent: "issue", amount, note: "Damaged in transit", confirmAnother: "yes", formToken: randomUUID() });
const refundsInShopify = (orderId: bigint) => h.shop.orders.get(orderId)!.refundIds.length;
const recordOn = (orderId: bigint) => h.db.refundRecord.findFirstOrThrow({ where: { orderId: orderGid(orderId) }, orderBy: { createdAt: "desc" } });
/**
 * A trigger that makes the database refuse one kind of write (a full disk, a failover), on either
 * database: `UPDATE` of a record when `NEW` matches `when`, or any `INSERT` of a row.
 */
async function refuseWrites(refuse: { table: string; write: "UPDATE" | "INSERT"; when?: string } | null) {
  if (!refuse) {
    for (const table of ["RefundRecord", "Operation"]) await h.db.$executeRawUnsafe(`DROP TRIGGER IF EXISTS refuse_write ${onPostgres ? `ON "${table}"` : ""}`);
    return;
  }
  const { table, write, when } = refuse;
  if (onPostgres) {
    await h.db.$executeRawUnsafe(
      `CREATE OR REPLACE FUNCTION refuse_write() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'could not write to disk'; END $$ LANGUAGE plpgsql`,
    );
    await h.db.$executeRawUnsafe(
      `CREATE TRIGGER refuse_write BEFORE ${write} ON "${table}" FOR EACH ROW ${when ? `WHEN (${when})` : ""} EXECUTE FUNCTION refuse_write()`,
    );
  } else {
    await h.db.$executeRawUnsafe(
      `CREATE TRIGGER refuse_write BEFORE ${write} ON "${table}" ${when ? `WHEN ${when}` : ""} BEGIN SELECT RAISE(ABORT, 'could not write to disk'); END`,
    );
  }
}
/** A refund issued while the database refuses one kind of write: the form's answer. */
async function issueRefusing(orderId: bigint, refuse: Parameters<typeof refuseWrites>[0]) {
  await refuseWrites(refuse);
  try {
    return await issue(orderId, "20.00");
  } finally {
    await refuseWrites(null);
  }
}
/** The worker's recovery waits 30 s after the last call, so no call of the request itself is still in flight. */
const afterGrace = () => h.clock.advance(31_000);

describe("refundCreate on API 2026-10 carries the record's id as its idempotency key", () => {
  it("a refund issued from the app is created under the key of its record", async () => {
    const order = h.shop.createOrder({ amount: "80.00" });
    const response = await issue(order.id, "30.00");
    expect(response.status).toBe(200);
    const record = await recordOn(order.id);
    expect(record).toMatchObject({ shopifyOutcome: "created", calls: 1 });
    expect(api().idempotencyKeys.has(record.id)).toBe(true);
    expect(JSON.parse(record.refundInput!)).toMatchObject({
      orderId: orderGid(order.id),
      currency: "USD",
      transactions: [{ amount: "30.00", kind: "REFUND" }],
    });
  });

  it("a lost answer is asked again with the same key: exactly one refund in Shopify, VERIFIED", async () => {
    const order = h.shop.createOrder({ amount: "70.00" });
    const before = { calls: api().stats.refundCreateCalls };
    h.app.shopify.inject({ kind: "lost_answer", operation: "mutation" });
    const response = await issue(order.id, "25.00");
    expect(response.status).toBe(200);
    expect(api().stats.refundCreateCalls).toBe(before.calls + 2);
    expect(refundsInShopify(order.id)).toBe(1);
    const record = await recordOn(order.id);
    expect(record).toMatchObject({ shopifyOutcome: "created", calls: 2 });
    expect(record.refundRef).toBe(`gid://shopify/Refund/${h.shop.orders.get(order.id)!.refundIds[0]}`);
    await h.app.shopify.flushWebhooks();
    await h.settle();
    expect(await h.db.operation.findFirstOrThrow({ where: { refundGid: record.refundRef! } })).toMatchObject({ status: "VERIFIED", origin: "app" });
  });

  it("Shopify made the refund and the app could not record it: the person is told so, never a 500, and the worker records that one refund later", async () => {
    const order = h.shop.createOrder({ amount: "60.00" });
    // The database refuses the write of Shopify's answer, and nothing else.
    const response = await issueRefusing(order.id, { table: "RefundRecord", write: "UPDATE", when: `NEW."shopifyOutcome" = 'created'` });
    expect(response.status).toBe(502);
    expect(await response.json()).toMatchObject({
      ok: false,
      code: "OUTCOME_UNKNOWN",
      message: expect.stringMatching(/^RF-\d{6} was sent to Shopify, but the app could not record what came back\. .*cannot refund twice/),
    });
    expect(refundsInShopify(order.id)).toBe(1);
    expect(await recordOn(order.id)).toMatchObject({ shopifyOutcome: "unknown", refundRef: null });

    afterGrace();
    await h.app.shopify.flushWebhooks();
    await h.settle();
    expect(refundsInShopify(order.id)).toBe(1);
    expect(await recordOn(order.id)).toMatchObject({
      shopifyOutcome: "created",
      refundRef: `gid://shopify/Refund/${h.shop.orders.get(order.id)!.refundIds[0]}`,
    });
  });

  it("Shopify's answer recorded and the write after it refused: the person is told the refund was made, as the record says", async () => {
    const order = h.shop.createOrder({ amount: "60.00" });
    // The record takes Shopify's refund; opening its verification fails.
    const response = await issueRefusing(order.id, { table: "Operation", write: "INSERT" });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ ok: true, message: expect.stringContaining("Shopify accepted the refund") });
    expect(await recordOn(order.id)).toMatchObject({ shopifyOutcome: "created" });
    expect(refundsInShopify(order.id)).toBe(1);
  });

  it("while an attempt has no answer, a second refund on the order is refused in words; the worker settles it with the same key", async () => {
    const order = h.shop.createOrder({ amount: "60.00" });
    // Shopify unavailable for every call the request makes: nothing is created.
    h.app.shopify.inject({ kind: "http", status: 503, operation: "mutation" }, 3);
    const first = await issue(order.id, "15.00");
    expect(first.status).toBe(502);
    expect(await first.json()).toMatchObject({ code: "OUTCOME_UNKNOWN" });
    const record = await recordOn(order.id);
    expect(record).toMatchObject({ shopifyOutcome: "unknown", calls: 3, status: "created", refundRef: null });
    expect(refundsInShopify(order.id)).toBe(0);

    const callsBefore = api().stats.refundCreateCalls;
    const second = await issue(order.id, "15.00");
    expect(second.status).toBe(409);
    const refused = await second.json();
    expect(refused.code).toBe("OUTCOME_PENDING");
    expect(refused.message).toContain(record.sysId);
    expect(refused.message).toMatch(/same idempotency key/);
    expect(api().stats.refundCreateCalls).toBe(callsBefore);
    const form = await (await asShop(dataPath(`/app/orders/${order.id}/refund`, "routes/app.orders.$orderId.refund"))).json();
    expect(form.openAttemptSysId).toBe(record.sysId);

    afterGrace();
    await h.worker.runOnce();
    const settled = await h.db.refundRecord.findUniqueOrThrow({ where: { id: record.id } });
    expect(settled).toMatchObject({ shopifyOutcome: "created", calls: 4 });
    expect(refundsInShopify(order.id)).toBe(1);
    expect(api().idempotencyKeys.has(record.id)).toBe(true);
    expect((await issueAnother(order.id, "5.00")).status).toBe(200);
  });

  it("a key Shopify forgot is not sent again blindly: the refund it made is adopted by fingerprint", async () => {
    const order = h.shop.createOrder({ amount: "50.00" });
    h.app.shopify.inject({ kind: "lost_answer", operation: "mutation" }, 3);
    expect((await issue(order.id, "20.00")).status).toBe(502);
    expect(refundsInShopify(order.id)).toBe(1);
    h.app.shopify.forgetIdempotencyKeys(h.domain);
    const record = await recordOn(order.id);
    const callsBefore = api().stats.refundCreateCalls;
    afterGrace();
    await h.worker.runOnce();
    const adopted = await h.db.refundRecord.findUniqueOrThrow({ where: { id: record.id } });
    expect(adopted.shopifyOutcome).toBe("created");
    expect(JSON.parse(adopted.actionResult!).refundCreate.adoptedBy).toBe("fingerprint");
    expect(api().stats.refundCreateCalls).toBe(callsBefore);
    expect(refundsInShopify(order.id)).toBe(1);
  });

  it("the same key with other input reaches a person, is never sent with a new key, and a person can settle it", async () => {
    const order = h.shop.createOrder({ amount: "90.00" });
    h.app.shopify.inject({ kind: "lost_answer", operation: "mutation" }, 3);
    await issue(order.id, "40.00");
    const record = await recordOn(order.id);
    // A bug of ours: the stored input no longer matches what the key was first sent with.
    const input = JSON.parse(record.refundInput!);
    input.transactions[0].amount = "41.00";
    await h.db.refundRecord.update({ where: { id: record.id }, data: { refundInput: JSON.stringify(input), amountMinor: 4100n } });
    const current = await h.db.refundRecord.findUniqueOrThrow({ where: { id: record.id } });
    const resent = await refundForm(order.id, { intent: "resend", recordId: current.id, revision: current.revision });
    expect(resent.status).toBe(409);
    expect(await resent.json()).toMatchObject({ code: "KEY_CONFLICT", message: expect.stringContaining("needs a person") });
    const conflicted = await h.db.refundRecord.findUniqueOrThrow({ where: { id: record.id } });
    expect(conflicted.shopifyOutcome).toBe("key_conflict");
    expect(refundsInShopify(order.id)).toBe(1);
    expect((await issue(order.id, "5.00")).status).toBe(409);
    afterGrace();
    await h.worker.runOnce();
    expect(refundsInShopify(order.id)).toBe(1);

    const stale = await refundForm(order.id, { intent: "settle", recordId: conflicted.id, revision: "not-the-current-token" });
    expect(await stale.json()).toMatchObject({ code: "CONFLICT" });
    const settle = await refundForm(order.id, { intent: "settle", recordId: conflicted.id, revision: conflicted.revision });
    expect(settle.status).toBe(200);
    expect(await h.db.refundRecord.findUniqueOrThrow({ where: { id: record.id } })).toMatchObject({
      status: "failed",
      shopifyOutcome: "refused",
      failureReason: expect.stringContaining("staff member 77"),
    });
    expect((await issueAnother(order.id, "5.00")).status).toBe(200);
  });

  it("a GraphQL error means Shopify ran nothing: the record fails at once, it is not an unknown outcome", async () => {
    const order = h.shop.createOrder({ amount: "30.00" });
    // The app's version is overridden for this call only by sending the mutation without its directive.
    const { createRefund } = await import("../../app/shopify/admin/refunds.server");
    const { ShopifyGateway } = await import("../../app/shopify/admin/gateway.server");
    const gateway = new ShopifyGateway(async () => async () => ({
      data: { refundCreate: null },
      errors: [{ message: "The @idempotent directive is required for this mutation.", path: ["refundCreate"], extensions: { code: "BAD_REQUEST" } }],
      apiVersion: "2026-10",
    }));
    const outcome = await createRefund(gateway, h.domain, { orderId: orderGid(order.id) }, "key");
    expect(outcome).toMatchObject({ kind: "not_run", failure: { kind: "graphql", code: "BAD_REQUEST" } });
    const { callShopify } = await import("../../app/refunds/send.server");
    const { mintRecord } = await import("../../app/refunds/records.server");
    const { REFUND_CREATED } = await import("../../app/contracts/registry.server");
    const record = await mintRecord(
      h.db,
      {
        shop: h.domain,
        caption: "test",
        orderId: orderGid(order.id),
        amountMinor: 100n,
        currency: "USD",
        refundInput: JSON.stringify({ orderId: orderGid(order.id) }),
      },
      new Date(),
    );
    const result = await callShopify({ db: h.db, contract: REFUND_CREATED, gateway, now: new Date() }, record, 3);
    expect(result).toMatchObject({ ok: false, code: "NOT_RUN", record: { status: "failed", shopifyOutcome: "refused", calls: 1 } });
  });
});

describe("an order paid in another currency than the shop's", () => {
  it("is refunded in the presentment currency (EUR in a USD shop) and verified VERIFIED; the record keeps both moneys", async () => {
    const order = h.shop.createOrder({ amount: "100.00", presentmentCurrency: "EUR", exchangeRate: "1.0850" });
    const form = await (await asShop(dataPath(`/app/orders/${order.id}/refund`, "routes/app.orders.$orderId.refund"))).json();
    expect(form.order).toMatchObject({ currency: "EUR", shopCurrency: "USD", refundable: "100.00" });
    const response = await issue(order.id, "40.00");
    expect(response.status).toBe(200);
    const record = await recordOn(order.id);
    expect(record).toMatchObject({ currency: "EUR", amountMinor: 4000n, shopCurrency: "USD", shopAmountMinor: 4340n });
    expect(JSON.parse(record.refundInput!)).toMatchObject({ currency: "EUR", transactions: [{ amount: "40.00" }] });
    await h.app.shopify.flushWebhooks();
    await h.settle();
    const op = await h.db.operation.findFirstOrThrow({ where: { refundGid: record.refundRef! } });
    expect(op).toMatchObject({ status: "VERIFIED", amount: "40.00", currency: "EUR", shopCurrency: "USD", contractVersion: "1.3.0" });
    const over = await issueAnother(order.id, "60.01");
    expect(await over.json()).toMatchObject({ code: "OVER_TENDERED", message: `You can refund at most €60.00 on ${order.name}.` });
  });
});

describe("a refund paid back over two gateways", () => {
  it("is not succeeded when its second transaction failed, and its verdict is FAILED", async () => {
    const order = h.shop.createOrder({
      amount: "50.00",
      payments: [
        { gateway: "gift_card", amount: "20.00" },
        { gateway: "shopify_payments", amount: "30.00" },
      ],
    });
    const response = await issue(order.id, "45.00");
    expect(response.status).toBe(200);
    const record = await recordOn(order.id);
    const input = JSON.parse(record.refundInput!);
    expect(input.transactions).toHaveLength(2);
    const refund = h.shop.refunds.get(h.shop.orders.get(order.id)!.refundIds[0])!;
    expect(refund.transactionIds).toHaveLength(2);
    const second = h.shop.transactions.get(refund.transactionIds[1])!;
    second.status = "FAILURE";
    second.errorCode = "CARD_DECLINED";
    await h.app.shopify.flushWebhooks();
    await h.settle();
    const settled = await h.db.refundRecord.findUniqueOrThrow({ where: { id: record.id } });
    expect(settled.status).toBe("failed");
    expect(settled.failureReason).toContain(second.gateway);
    expect(await h.db.operation.findFirstOrThrow({ where: { refundGid: record.refundRef! } })).toMatchObject({
      status: "FAILED",
      reason: "transaction_failed",
    });
  });
});
