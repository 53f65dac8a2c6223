import { toMinorUnits } from "../../app/lib/money/currency";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { installShop } from "../support/sessions";
import { CHROME_UA, dataPath, embeddedFetch } from "../support/embedded";
import { mintSessionToken } from "../../fake-shopify/session-token";
import { TEST_APP } from "../support/credentials";
import { refundGid, startVerificationHarness, type VerificationHarness } from "../support/verification";
import { newDelivery, refundWebhookBody } from "../../fake-shopify/webhooks";
import { csvRecords, readCsv } from "../support/csv";

const OTHER = "other-shop.myshopify.com";
let h: VerificationHarness;
let asShop: ReturnType<typeof embeddedFetch>;
let asOther: ReturnType<typeof embeddedFetch>;
const ids: Record<string, string> = {};

beforeAll(async () => {
  h = await startVerificationHarness("dash-shop.myshopify.com");
  await installShop(h.db, h.app.shopify, OTHER);
  // The shop's staff as Shopify knows them: the app learns their names at their first request (their online session).
  h.app.shopify.addStaff(h.domain, { id: "101", firstName: "Grace", lastName: "Hopper" });
  h.app.shopify.addStaff(h.domain, { id: "303", firstName: "Ada", lastName: "Lovelace" });
  asShop = embeddedFetch(h.app.url, h.domain, "101");
  asOther = embeddedFetch(h.app.url, OTHER, "202");
  const scenarios: [string, string, Parameters<typeof h.shop.createRefund>[1]][] = [
    ["ok1", "30.00", { amount: "10.00" }],
    ["ok2", "30.00", { amount: "12.50" }],
    ["wrong", "50.00", { amount: "20.00", recordedAmount: "21.00" }],
    ["failed", "50.00", { amount: "5.00", status: "FAILURE" }],
  ];
  for (const [name, total, refund] of scenarios) {
    const order = h.shop.createOrder({ amount: total });
    const created = h.shop.createRefund(order.id, refund);
    await h.deliver(h.refundDelivery(created));
    ids[name] = refundGid(created.id);
  }
  for (let i = 0; i < 26; i++) {
    const order = h.shop.createOrder({ amount: "9.00" });
    await h.deliver(h.refundDelivery(h.shop.createRefund(order.id, { amount: `${1 + (i % 5)}.00` })));
  }
  const otherShop = h.app.shopify.shop(OTHER);
  const otherOrder = otherShop.createOrder({ amount: "99.00" });
  const otherRefund = otherShop.createRefund(otherOrder.id, { amount: "99.00", recordedAmount: "1.00" });
  await h.deliver(newDelivery("refunds/create", OTHER, refundWebhookBody(otherShop, otherRefund)));
  ids.other = refundGid(otherRefund.id);
  await h.settle();
});
afterAll(async () => h.close());

const opId = async (gid: string) => (await h.db.operation.findFirstOrThrow({ where: { refundGid: gid } })).id;
async function dashboard(query = "") {
  const response = await asShop(dataPath(`/app${query}`, "routes/app._index"));
  expect(response.status).toBe(200);
  return response.json();
}

describe("the dashboard's data", () => {
  it("shows the figures for the period, with money per currency", async () => {
    const data = await dashboard();
    expect(data.figures.counts).toMatchObject({ VERIFIED: 28, CONTRADICTED: 1, FAILED: 1, UNVERIFIABLE: 0, PENDING: 0 });
    expect(data.figures.waitingForReview).toBe(2);
    expect(data.figures.money).toContainEqual(expect.objectContaining({ status: "CONTRADICTED", currency: "USD", amount: "20.00" }));
    expect(data.total).toBe(30);
  });

  it("narrows by verdict, problem, gateway failure and search", async () => {
    expect((await dashboard("?verdict=CONTRADICTED")).rows.map((r: { status: string }) => r.status)).toEqual(["CONTRADICTED"]);
    expect((await dashboard("?class=wrong_amount")).rows).toHaveLength(1);
    expect((await dashboard("?class=duplicate")).rows).toHaveLength(0);
    const failed = await dashboard("?gateway=failed");
    expect(failed.rows).toHaveLength(1);
    expect(failed.rows[0].reasonText).toContain("failed at the payment gateway");
    const first = (await dashboard()).rows[0];
    const searched = await dashboard(`?q=${encodeURIComponent(first.orderName)}`);
    expect(searched.rows.map((r: { id: string }) => r.id)).toEqual([first.id]);
    expect((await dashboard(`?q=${first.orderId}`)).rows.map((r: { id: string }) => r.id)).toEqual([first.id]);
  });

  it("pages with cursors forward and back, every refund once", async () => {
    const seen: string[] = [];
    const amounts: bigint[] = [];
    let page = await dashboard("?size=7&sort=amount_desc");
    const firstPage = page.rows.map((r: { id: string }) => r.id);
    for (;;) {
      seen.push(...page.rows.map((r: { id: string }) => r.id));
      amounts.push(...page.rows.map((r: { amount: string; currency: string }) => toMinorUnits(r.amount, r.currency)!));
      if (!page.pageInfo.hasNext) break;
      page = await dashboard(`?size=7&sort=amount_desc&after=${page.pageInfo.endCursor}`);
    }
    expect(seen).toHaveLength(30);
    expect(new Set(seen).size).toBe(30);
    let back = page;
    while (back.pageInfo.hasPrevious) back = await dashboard(`?size=7&sort=amount_desc&before=${back.pageInfo.startCursor}`);
    expect(back.rows.map((r: { id: string }) => r.id)).toEqual(firstPage);
    // Largest first across every page boundary.
    expect(amounts.every((amount, i) => i === 0 || amounts[i - 1] >= amount)).toBe(true);
    expect(new Set(amounts.map(String)).size).toBeGreaterThan(1);
  });

  it("takes a forged or stale cursor as no cursor: the first page, never a 500 (issue 41)", async () => {
    const cursor = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
    const first = (await dashboard("?size=7&sort=amount_desc")).rows.map((r: { id: string }) => r.id);
    const newest = (await dashboard("?size=7&sort=newest")).rows.map((r: { id: string }) => r.id);
    const forged = [
      cursor({ k: "amount", v: "abc" }),
      cursor({ k: "amountMinor", v: "abc", id: "x" }),
      cursor({ v: "abc", id: "x" }),
      cursor({ v: "12.5", id: "x" }),
      cursor({ v: "1e3", id: "x" }),
      cursor({ v: "9".repeat(40), id: "x" }),
      cursor({ v: "2026-01-01T00:00:00.000Z", id: "x" }),
      cursor({ k: "startedAt", v: "2026-01-01T00:00:00.000Z", id: "x" }),
      cursor("garbage"),
      "not%20base64%20at%20all",
      "%00%01",
    ];
    const answers = async (sort: string, cursors: string[], expected: string[]) => {
      const wrong: string[] = [];
      for (const bad of cursors) {
        for (const side of ["after", "before"]) {
          const response = await asShop(dataPath(`/app?size=7&sort=${sort}&${side}=${bad}`, "routes/app._index"));
          const page = response.status === 200 ? await response.json() : null;
          const ids = page?.rows.map((r: { id: string }) => r.id);
          if (!page) wrong.push(`${sort} ${side}=${bad}: ${response.status}`);
          else if (JSON.stringify(ids) !== JSON.stringify(expected) || page.pageInfo.hasPrevious) wrong.push(`${sort} ${side}=${bad}: not the first page`);
        }
      }
      return wrong;
    };
    const stale = [cursor({ v: "abc", id: "x" }), cursor({ v: "99999", id: "x" }), cursor({ k: "amountMinor", v: "1000", id: "x" })];
    expect([...(await answers("amount_desc", forged, first)), ...(await answers("newest", stale, newest))]).toEqual([]);
  });

  it("narrows to refunds that need review, and to date presets in the shop's time zone", async () => {
    const open = await dashboard("?review=open");
    expect(open.rows.map((r: { status: string }) => r.status).sort()).toEqual(["CONTRADICTED", "FAILED"]);
    expect(open.rows.every((r: { reviewState: string }) => r.reviewState === "open")).toBe(true);
    const today = await dashboard("?range=today");
    expect(today.filters).toMatchObject({ range: "today", timeZone: "America/New_York" });
    expect(today.filters.from).toBe(today.filters.to);
    const week = await dashboard("?range=7d");
    expect(week.total).toBe(30);
    expect(Date.parse(week.filters.to) - Date.parse(week.filters.from)).toBe(6 * 86_400_000);
    const custom = await dashboard("?from=2020-01-01&to=2020-01-31");
    expect(custom.filters.range).toBe("custom");
    expect(custom.total).toBe(0);
    expect(today.firstRun).toBe(false);
  });

  it("names every answer with a request id: the caller's when it sent a sane one, a new one otherwise", async () => {
    const own = await asShop(dataPath("/app", "routes/app._index"));
    expect(own.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    const traced = await asShop(dataPath("/app", "routes/app._index"), { headers: { "X-Request-Id": "edge-7f3a.42" } });
    expect(traced.headers.get("x-request-id")).toBe("edge-7f3a.42");
    const odd = await asShop(dataPath("/app", "routes/app._index"), { headers: { "X-Request-Id": "<script>" } });
    expect(odd.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("a page whose loader fails says a sentence and a reference that is the request's id, never the error", async () => {
    const host = Buffer.from(`admin.shopify.com/store/${h.domain.split(".")[0]}`).toString("base64url");
    const token = mintSessionToken({ shop: h.domain, apiKey: TEST_APP.apiKey, secret: TEST_APP.secret });
    // The alerts page's loader reads this table: without it, the loader throws.
    await h.db.$executeRawUnsafe('ALTER TABLE "AlertDelivery" RENAME TO "AlertDelivery_away"');
    try {
      const response = await fetch(`${h.app.url}/app/settings/alerts?embedded=1&shop=${h.domain}&host=${host}&id_token=${token}`, {
        headers: { "User-Agent": CHROME_UA },
      });
      const html = await response.text();
      expect(response.status).toBe(500);
      const id = response.headers.get("x-request-id")!;
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      expect(html).toContain("Refund Verifier could not show this page.");
      expect(html).toContain(`Reference: <code data-request-id="${id}">${id}</code>`);
      expect(html).not.toMatch(/AlertDelivery|does not exist|no such table/);
    } finally {
      await h.db.$executeRawUnsafe('ALTER TABLE "AlertDelivery_away" RENAME TO "AlertDelivery"');
    }
  });

  it("never shows another shop's refunds", async () => {
    const data = await dashboard("?size=100");
    expect(data.rows.map((r: { id: string }) => r.id)).not.toContain(await opId(ids.other));
  });
});

describe("shop isolation on every screen", () => {
  it("answers 404 for another shop's refund: detail, re-check, resolve", async () => {
    const other = await opId(ids.other);
    expect((await asShop(dataPath(`/app/refunds/${other}`, "routes/app.refunds.$id"))).status).toBe(404);
    const form = new URLSearchParams({ intent: "resolve", revision: "0", note: "not mine" });
    expect((await asShop(dataPath(`/app/refunds/${other}`, "routes/app.refunds.$id"), { method: "POST", body: form })).status).toBe(404);
    const queued = new URLSearchParams({ intent: "resolve", id: other, revision: "0", note: "not mine" });
    expect((await asShop(dataPath("/app/review", "routes/app.review"), { method: "POST", body: queued })).status).toBe(404);
    expect((await h.db.operation.findUniqueOrThrow({ where: { id: other } })).reviewState).toBe("open");
    expect((await asOther(dataPath(`/app/refunds/${other}`, "routes/app.refunds.$id"))).status).toBe(200);
  });

  it("the CSV export holds only the shop's own refunds", async () => {
    const rows = csvRecords(await (await asOther("/app/refunds.csv?format=raw")).text());
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ amount: "99.00", currency: "USD", shop_amount: "", verdict: "CONTRADICTED", reason: "refund_amount_mismatch" });
  });
});

describe("refund detail", () => {
  it("explains the verdict condition by condition, with the contract that decided it", async () => {
    const response = await asShop(dataPath(`/app/refunds/${await opId(ids.wrong)}`, "routes/app.refunds.$id"));
    const detail = await response.json();
    expect(detail.refund).toMatchObject({ status: "CONTRADICTED", reason: "refund_amount_mismatch", amount: "20.00" });
    expect(detail.explanation).toBe("The provider recorded a different refund amount.");
    expect(detail.conditions.find((c: { id: string }) => c.id === "refund_amount_mismatch")).toMatchObject({
      status: "holds",
      actual: "21.0",
      expected_value: "20.00",
    });
    expect(detail.contract).toMatchObject({ id: "shopify.refund.created", version: "1.3.0", declaredHash: "362ca2f325e3f3b5" });
    expect(detail.timeline.map((t: { kind: string }) => t.kind)).toEqual(expect.arrayContaining(["webhook", "observation", "evaluation"]));
  });
});

describe("the review queue", () => {
  it("lists escalated refunds oldest first; two people resolving at once get one success and one conflict", async () => {
    const queue = await (await asShop(dataPath("/app/review", "routes/app.review"))).json();
    expect(queue.items.map((i: { status: string }) => i.status).sort()).toEqual(["CONTRADICTED", "FAILED"]);
    const item = queue.items.find((i: { status: string }) => i.status === "FAILED");
    const resolve = (who: ReturnType<typeof embeddedFetch>, note: string) =>
      who(dataPath("/app/review", "routes/app.review"), {
        method: "POST",
        body: new URLSearchParams({ intent: "resolve", id: item.id, revision: String(item.revision), note }),
      });
    const second = embeddedFetch(h.app.url, h.domain, "303");
    const [a, b] = await Promise.all([resolve(asShop, "Refunded by hand at the gateway"), resolve(second, "Called the customer")]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const conflict = await (a.status === 409 ? a : b).json();
    expect(conflict.message).toMatch(/Someone else changed this refund/);
    const events = await h.db.reviewEvent.findMany({ where: { operationId: item.id } });
    expect(events).toHaveLength(1);
    expect(["101", "303"]).toContain(events[0].actor);
    // The loser is told who won, by the name Shopify gave them, and what they wrote.
    expect(conflict.resolvedBy).toBe(events[0].actor === "303" ? "Ada Lovelace" : "Grace Hopper");
    expect(conflict.resolvedNote).toBe(events[0].note);
    const resolved = await (await asShop(dataPath("/app/review?view=resolved", "routes/app.review"))).json();
    expect(resolved.view).toBe("resolved");
    expect(resolved.items.find((i: { id: string }) => i.id === item.id).resolution).toMatchObject({ note: events[0].note, by: conflict.resolvedBy });
    const after = await (await asShop(dataPath("/app/review", "routes/app.review"))).json();
    expect(after.items.map((i: { id: string }) => i.id)).not.toContain(item.id);
    const detail = await (await asShop(dataPath(`/app/refunds/${item.id}`, "routes/app.refunds.$id"))).json();
    expect(detail.timeline.find((t: { kind: string }) => t.kind === "review").detail).toMatch(/Refunded by hand|Called the customer/);
  });

  it("refuses a resolution without a note", async () => {
    const queue = await (await asShop(dataPath("/app/review", "routes/app.review"))).json();
    const item = queue.items[0];
    const response = await asShop(dataPath("/app/review", "routes/app.review"), {
      method: "POST",
      body: new URLSearchParams({ intent: "resolve", id: item.id, revision: String(item.revision), note: "  " }),
    });
    expect(response.status).toBe(422);
  });
});

describe("CSV export", () => {
  it("streams the filtered list with exact decimal amounts", async () => {
    const response = await asShop("/app/refunds.csv?verdict=VERIFIED&sort=amount_asc&format=raw");
    expect(response.headers.get("content-type")).toContain("text/csv");
    const text = await response.text();
    expect(readCsv(text)[0]).toEqual(
      "order,order_id,amount,currency,shop_amount,shop_currency,verdict,reason,reason_text,classes,origin,started_at,review,matched_by,api_versions_outside_contract,refund_id,recorded_amount,recorded_currency,resolution_note,resolved_by,settlement_status,money,arn,payout_id,payout_status,exposure_status,exposure_reasons,at_risk_amount,at_risk_currency,asked_by,approval,approved_or_declined_by,decided_at,approval_note,limits,over_limit,made_in,made_by_user_id,made_by_app".split(
        ",",
      ),
    );
    const rows = csvRecords(text);
    expect(rows).toHaveLength(28);
    expect(rows[0].amount).toBe("1.00");
    expect(rows.every((row) => row.verdict === "VERIFIED")).toBe(true);
  });
});

describe("CSV export for people", () => {
  it("opens in a spreadsheet as the screens read: UTF-8 with BOM, words for headers and values, ids as text, times in the shop's zone with their offset", async () => {
    const bytes = new Uint8Array(await (await asShop("/app/refunds.csv?range=all")).arrayBuffer());
    // The byte order mark (a Response's text() drops it, as Excel reads it: as the sign of UTF-8).
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder().decode(bytes);
    const rows = csvRecords(text);
    const raw = csvRecords(await (await asShop("/app/refunds.csv?range=all&format=raw")).text());
    expect(rows.length).toBe(raw.length);
    expect(Object.keys(rows[0]).slice(0, 7)).toEqual(["Order", "Amount", "Currency", "Verdict", "Problem", "Why", "Refund made"]);
    for (const [i, row] of rows.entries()) {
      // A 16-digit id a spreadsheet would read as a number (and round) is written as Shopify's gid: text.
      expect(row["Order ID"]).toBe(`gid://shopify/Order/${raw[i].order_id}`);
      expect(row["Refund ID"]).toBe(`gid://shopify/Refund/${raw[i].refund_id}`);
      expect(row["Refund made"]).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d [+-]\d\d:\d\d$/);
      expect(Date.parse(row["Refund made"].replace(" ", "T").replace(" ", ""))).toBe(Date.parse(raw[i].started_at));
    }
    expect(new Set(rows.map((r) => r.Verdict))).toContain("Verified");
    expect(rows.find((r) => r.Problem === "Wrong amount")?.Why).toMatch(/^Shopify recorded \$21\.00; the refund asked for \$20\.00/);
    // Nothing of the engine's: no verdict codes, reason ids or origins as the database holds them.
    expect(text).not.toMatch(/VERIFIED|CONTRADICTED|PENDING|[a-z]+_[a-z_]+|webhook/);
  });
});

describe("CSV export of resolutions", () => {
  it("holds Shopify's refund id, the amount Shopify recorded (its decimal as read back), the resolution note and who resolved it", async () => {
    const wrong = await h.db.operation.findFirstOrThrow({ where: { refundGid: ids.wrong } });
    const form = new URLSearchParams({
      intent: "resolve",
      id: wrong.id,
      revision: String(wrong.revision),
      note: "Refunded the extra 1.00, note to the customer",
    });
    expect((await asShop(dataPath("/app/review", "routes/app.review"), { method: "POST", body: form })).status).toBe(200);
    const rows = csvRecords(await (await asShop("/app/refunds.csv?class=wrong_amount&format=raw")).text());
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      refund_id: ids.wrong.split("/").pop(),
      recorded_amount: "21.0",
      recorded_currency: "USD",
      resolution_note: "Refunded the extra 1.00, note to the customer",
      resolved_by: "Grace Hopper",
    });
  });
});

describe("the order-page block's backend", () => {
  it("answers the order's verdicts to the shop's ID token, and nothing for another shop's order", async () => {
    const op = await h.db.operation.findFirstOrThrow({ where: { refundGid: ids.wrong } });
    const orderId = op.orderGid.split("/").pop();
    const mine = await (await asShop(`/app/api/orders/${orderId}/refunds`)).json();
    expect(mine.refunds).toEqual([expect.objectContaining({ id: op.id, status: "CONTRADICTED", amount: "20.00", currency: "USD" })]);
    const theirs = await (await asOther(`/app/api/orders/${orderId}/refunds`)).json();
    expect(theirs.refunds).toEqual([]);
  });

  it("an order's number with a leading zero is no order: 404 in words the block can read, not 'no refunds on this order'", async () => {
    const op = await h.db.operation.findFirstOrThrow({ where: { refundGid: ids.wrong } });
    const respelled = await asShop(`/app/api/orders/0${op.orderGid.split("/").pop()}/refunds`, { headers: { Origin: "https://extensions.shopifycdn.com" } });
    expect(respelled.status).toBe(404);
    expect(respelled.headers.get("access-control-allow-origin")).toBe("*");
    expect(await respelled.text()).toMatch(/does not name an order: an order's number is written in digits, without leading zeros/);
  });

  it("refuses an ID token that names no staff member with a 401 the block can read (CORS), and no verdicts", async () => {
    const op = await h.db.operation.findFirstOrThrow({ where: { refundGid: ids.wrong } });
    const nobody = mintSessionToken({ shop: h.domain, apiKey: TEST_APP.apiKey, secret: TEST_APP.secret, overrides: { sub: undefined } });
    const answer = await fetch(`${h.app.url}/app/api/orders/${op.orderGid.split("/").pop()}/refunds`, {
      headers: { Origin: "https://extensions.shopifycdn.com", Authorization: `Bearer ${nobody}`, "User-Agent": CHROME_UA },
    });
    expect(answer.status).toBe(401);
    expect(answer.headers.get("access-control-allow-origin")).toBe("*");
    expect(await answer.text()).not.toContain(op.id);
  });

  it("answers the block as the admin's extension sandbox asks, from another origin: a CORS preflight, then the GET", async () => {
    // The block's fetch runs in a worker on Shopify's extension origin; the Authorization header the admin adds makes
    // the browser ask first (OPTIONS, no token), and read the answer only with Access-Control-Allow-Origin.
    const op = await h.db.operation.findFirstOrThrow({ where: { refundGid: ids.wrong } });
    const path = `/app/api/orders/${op.orderGid.split("/").pop()}/refunds`;
    const origin = "https://extensions.shopifycdn.com";
    const preflight = await fetch(`${h.app.url}${path}`, {
      method: "OPTIONS",
      headers: { Origin: origin, "Access-Control-Request-Method": "GET", "Access-Control-Request-Headers": "authorization", "User-Agent": CHROME_UA },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
    expect(preflight.headers.get("access-control-allow-headers")).toContain("Authorization");
    const answer = await asShop(path, { headers: { Origin: origin } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("access-control-allow-origin")).toBe("*");
    expect((await answer.json()).refunds).toEqual([expect.objectContaining({ id: op.id, status: "CONTRADICTED" })]);
  });
});

describe("dates a URL can carry", () => {
  // Issue 42, item 9: a custom date from year 0000 answered 500 on the dashboard and the queue, and cut the CSV short.
  const odd = [
    ["0000-01-01", "0000-12-31"],
    ["0001-01-01", "0099-12-31"],
    ["1969-12-31", "9999-12-31"],
    ["9999-12-31", "9999-12-31"],
  ];
  it.each(odd)("from %s to %s: the dashboard, the queue and a whole CSV, never a 500", async (from, to) => {
    const query = `?from=${from}&to=${to}`;
    expect((await dashboard(query)).total).toBeGreaterThanOrEqual(0);
    expect((await asShop(dataPath(`/app/review${query}`, "routes/app.review"))).status).toBe(200);
    const csv = await asShop(`/app/refunds.csv${query}&format=raw`);
    expect(csv.status).toBe(200);
    const rows = csvRecords(await csv.text());
    // Header included: the file is whole, every row with the header's columns.
    expect(rows.length).toBeGreaterThanOrEqual(1);
    expect(rows.filter((row) => row.length !== rows[0].length)).toEqual([]);
  });

  it("a year no refund can be from is no filter: every refund shows, as for any date the app cannot read", async () => {
    expect((await dashboard("?from=0000-01-01&to=0000-12-31")).total).toBe((await dashboard("?range=all")).total);
  });
});
