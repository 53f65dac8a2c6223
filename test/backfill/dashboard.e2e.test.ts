import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedHistory } from "../../fake-shopify/history";
import { dataPath, embeddedFetch } from "../support/embedded";
import { installShop, staffSignedIn } from "../support/sessions";
import { startVerificationHarness, type VerificationHarness } from "../support/verification";

let h: VerificationHarness;
beforeAll(async () => {
  h = await startVerificationHarness("history-dashboard.myshopify.com");
});
afterAll(async () => h.close());

const ROUTE = "routes/app._index";
// Each test's shop is installed and its staff member 42 uses the app already: a first request's token exchange would
// run the install hook, which asks for the shop's first backfill, and these tests are about the ones a person asks for.

describe("the dashboard's history card", () => {
  it("starts a backfill on 'Verify history', shows the running one on a second click, its progress, and what the history holds", async () => {
    const domain = "history-card.myshopify.com";
    await installShop(h.db, h.app.shopify, domain);
    await staffSignedIn(h.db, h.app.shopify, domain);
    const seeded = seedHistory(h.app.shopify.shop(domain), 30, { days: 20 });
    const app = embeddedFetch(h.app.url, domain);
    const load = async () => (await (await app(dataPath("/app", ROUTE))).json()).backfill;
    expect(await load()).toBeNull();

    const click = (days: string) => app(dataPath("/app?index", ROUTE), { method: "POST", body: new URLSearchParams({ intent: "backfill", days }) });
    const first = await click("30");
    expect(first.status).toBe(200);
    const started = await first.json();
    expect(started).toMatchObject({ ok: true, created: true, backfill: { state: "queued", stateLabel: "Queued", running: true, days: 30, percent: 0 } });
    const again = await (await click("90")).json();
    expect(again).toMatchObject({ ok: true, created: false, backfill: { id: started.backfill.id, days: 30 } });

    await h.worker.runBackfills();
    expect(await load()).toMatchObject({
      state: "reading",
      stateLabel: "Reading Shopify",
      progress: expect.stringMatching(/^Reading Shopify: \d+ records so far$/),
    });
    for (let i = 0; i < 50 && (await load()).running; i++) {
      h.clock.advance(10_000); // Shopify's bulk operation runs on the test's clock
      await h.worker.runBackfills();
    }
    const done = await load();
    expect(done).toMatchObject({ state: "done", running: false, percent: 100 });
    // Without read_all_orders the card offers no more than the 60 days Shopify shows the app.
    expect((await (await app(dataPath("/app", ROUTE))).json()).historyMaxDays).toBe(60);
    // "Done" only once its refunds have their verdicts: while 11 are still checked, it says "Verifying".
    const row = await h.db.backfill.findFirstOrThrow({ where: { id: started.backfill.id } });
    // Imported once the app's environment is set (its database client reads it when loaded).
    const { backfillCard } = await import("../../app/backfill/card.server");
    expect(backfillCard(row, 11)).toMatchObject({ state: "verifying", stateLabel: "Verifying", sentence: expect.stringContaining("11 still being verified") });
    expect(backfillCard(row, 0)).toMatchObject({ state: "done", stateLabel: "Done" });
    expect(done.sentence).toMatch(new RegExp(`^${seeded.inWindow} refunds in 30 days: \\d+ verified`));

    // Its refunds are rows like any other, in the history contract's words, with their evidence.
    const { rows } = await (await app(dataPath("/app?origin=backfill", ROUTE))).json();
    const duplicate = rows.find((r: { reason: string }) => r.reason === "duplicate_refund_in_history");
    expect(duplicate).toMatchObject({ origin: "backfill", status: "CONTRADICTED", reasonText: expect.stringContaining("another refund of the same amount") });
    expect(rows.find((r: { status: string }) => r.status === "VERIFIED").reasonText).toBe(
      "Shopify holds this refund as recorded, read from the shop's history.",
    );
    const evidence = await (await app(dataPath(`/app/refunds/${duplicate.id}`, "routes/app.refunds.$id"))).json();
    // The second of a pair 90 s apart repeats the first, and says which.
    expect(evidence.lead.sentence).toMatch(/^This refund of (\$[\d.]+) was made 90 seconds after another refund of \1 on #\d+\. Shopify holds both\.$/);
    expect(evidence.lead.nextStep).toContain("Do not retry");
  });

  it("answers days outside 1 to 365 with a field error, and starts nothing", async () => {
    const domain = "history-card-bad.myshopify.com";
    await installShop(h.db, h.app.shopify, domain);
    await staffSignedIn(h.db, h.app.shopify, domain);
    const app = embeddedFetch(h.app.url, domain);
    const answer = await app(dataPath("/app?index", ROUTE), { method: "POST", body: new URLSearchParams({ intent: "backfill", days: "400" }) });
    expect(answer.status).toBe(422);
    expect(await answer.json()).toEqual({ ok: false, status: 422, fieldErrors: { days: "Shopify keeps at most 365 days here." } });
    expect(await h.db.backfill.count({ where: { shop: domain } })).toBe(0);
  });
});
