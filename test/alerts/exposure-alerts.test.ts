import { describe, expect, it } from "vitest";
import {
  disputeOfConcern,
  exposureAlertsOf,
  exposureAlertsOwed,
  exposureFacts,
  exposureHeadline,
  exposureSentence,
  firstDisputeAlert,
  isPastNews,
} from "../../app/alerts/exposure-alerts";
import { digestMessage, testAlert } from "../../app/alerts/messages";
import { DEFAULT_ALERT_SETTINGS, wantsInstant } from "../../app/alerts/settings-view";

const DAY = 86_400_000;
const dispute = (status: string, extra: Record<string, unknown> = {}) => ({
  id: `gid://shopify/OrderDisputeSummary/${status}`,
  status,
  initiated_as: "CHARGEBACK",
  ...extra,
});
const observed = (disputes: ReturnType<typeof dispute>[], money = { paid: "100.00", refunded: "40.00" }) =>
  JSON.stringify({
    order_money: { ...money, currency: "USD", to_store_credit: "0.00", to_payment: money.refunded },
    order_disputes: { details: true, disputes },
  });
const row = (overrides: Partial<Parameters<typeof exposureFacts>[0]> = {}) => ({
  classes: '["open chargeback"]',
  reasons: '["refund_on_disputed_order"]',
  atRisk: "100.00",
  currency: "USD",
  observed: observed([dispute("NEEDS_RESPONSE", { evidence_due_by: "2026-05-08T16:00:00Z" })]),
  ...overrides,
});
const refund = { amount: "40.00", currency: "USD", order: "#1001" };

describe("the kinds an exposure alerts", () => {
  it("one per kind its classes call for: two classes of more back than paid are one kind", () => {
    expect(exposureAlertsOf(["open chargeback"])).toEqual(["CHARGEBACK_OPEN"]);
    expect(exposureAlertsOf(["paid twice", "open chargeback"])).toEqual(["CHARGEBACK_OPEN", "PAID_TWICE"]);
    expect(exposureAlertsOf(["more back than paid", "store credit and cash"])).toEqual(["MORE_BACK_THAN_PAID"]);
    expect(exposureAlertsOf(["store credit and cash"])).toEqual(["MORE_BACK_THAN_PAID"]);
    expect(exposureAlertsOf([])).toEqual([]);
  });

  it("once per refund and kind, ever: what was alerted is never owed again, whatever the exposure says later", () => {
    expect(exposureAlertsOwed(["paid twice"], ["CHARGEBACK_OPEN"])).toEqual(["PAID_TWICE"]);
    expect(exposureAlertsOwed(["open chargeback"], ["CHARGEBACK_OPEN", "PAID_TWICE"])).toEqual([]);
  });

  it("the Flow trigger starts at the first kind a dispute brings, and never after one", () => {
    expect(firstDisputeAlert(["CHARGEBACK_OPEN"], [])).toBe("CHARGEBACK_OPEN");
    expect(firstDisputeAlert(["PAID_TWICE"], [])).toBe("PAID_TWICE");
    expect(firstDisputeAlert(["CHARGEBACK_OPEN"], ["MORE_BACK_THAN_PAID"])).toBe("CHARGEBACK_OPEN");
    expect(firstDisputeAlert(["PAID_TWICE"], ["CHARGEBACK_OPEN"])).toBeNull();
    expect(firstDisputeAlert(["MORE_BACK_THAN_PAID"], [])).toBeNull();
  });

  it("a refund of the shop's history found at risk by the first reads is the past, but for an open chargeback; a later change is news", () => {
    const startedAt = new Date("2026-05-01T00:00:00Z");
    const firstRead = { startedAt, decidedAt: new Date(startedAt.getTime() + 60_000) };
    const later = { startedAt, decidedAt: new Date(startedAt.getTime() + 3 * DAY) };
    expect(isPastNews("PAID_TWICE", "backfill", firstRead)).toBe(true);
    expect(isPastNews("MORE_BACK_THAN_PAID", "backfill", firstRead)).toBe(true);
    expect(isPastNews("CHARGEBACK_OPEN", "backfill", firstRead)).toBe(false);
    expect(isPastNews("PAID_TWICE", "backfill", later)).toBe(false);
    for (const origin of ["webhook", "reconciliation", "app"]) expect(isPastNews("PAID_TWICE", origin, firstRead)).toBe(false);
  });

  it("go by their own choice, 'Money at risk twice', on by default", () => {
    const settings = { ...DEFAULT_ALERT_SETTINGS, emailRecipients: ["ops@shop.test"] };
    expect(wantsInstant(settings, "CHARGEBACK_OPEN")).toBe(true);
    expect(wantsInstant({ ...settings, verdicts: ["CONTRADICTED", "MONEY"] }, "PAID_TWICE")).toBe(false);
    expect(wantsInstant({ ...settings, verdicts: ["AT_RISK_TWICE"] }, "MORE_BACK_THAN_PAID")).toBe(true);
    expect(wantsInstant({ ...settings, verdicts: ["AT_RISK_TWICE"] }, "CONTRADICTED")).toBe(false);
  });
});

describe("what an exposure alert says", () => {
  it("an open chargeback: what to do, by its due date in the shop's zone when known", () => {
    const facts = exposureFacts(row(), refund);
    expect(exposureHeadline("CHARGEBACK_OPEN", facts, "America/New_York")).toBe(
      "Chargeback open: answer the dispute with the refund's proof by May 8, 2026, 12:00 PM EDT",
    );
    expect(exposureHeadline("CHARGEBACK_OPEN", exposureFacts(row({ observed: observed([dispute("NEEDS_RESPONSE")]) }), refund), "UTC")).toBe(
      "Chargeback open: answer the dispute with the refund's proof",
    );
    expect(exposureSentence("CHARGEBACK_OPEN", facts)).toBe(
      "A chargeback is open on #1001, which you refunded $40.00: if it is lost, the customer is paid twice. Answer it with this refund's proof: its date, amount and card reference.",
    );
    const creditNotProcessed = exposureFacts(row({ reasons: '["dispute_says_credit_not_processed","refund_on_disputed_order"]' }), refund);
    expect(exposureSentence("CHARGEBACK_OPEN", creditNotProcessed)).toMatch(/^The customer disputes the charge on #1001 saying the refund never came/);
  });

  it("paid twice: the money the customer got back twice; the refund's amount when the dispute's is not known", () => {
    const lost = exposureFacts(row({ classes: '["paid twice"]', observed: observed([dispute("LOST")]) }), refund);
    expect(exposureHeadline("PAID_TWICE", lost, "UTC")).toBe("Paid twice");
    expect(exposureSentence("PAID_TWICE", lost)).toBe(
      "A chargeback on #1001 was lost after you refunded $40.00 on it: the customer got $100.00 back twice, from you and from their bank.",
    );
    expect(exposureFacts(row({ atRisk: null, currency: null }), refund).atRisk).toEqual({ amount: "40.00", currency: "USD" });
  });

  it("more back than paid: by how much, exactly, from the order's money (never a float)", () => {
    const over = observed([], { paid: "0.30", refunded: "0.60" });
    const both = exposureFacts(row({ classes: '["more back than paid","store credit and cash"]', observed: over }), refund);
    expect(exposureSentence("MORE_BACK_THAN_PAID", both)).toBe(
      "#1001 was refunded to store credit and to the customer's payment: together, $0.30 more than the customer paid.",
    );
    const past = exposureFacts(row({ classes: '["more back than paid"]', observed: over }), refund);
    expect(exposureSentence("MORE_BACK_THAN_PAID", past)).toBe("The refunds on #1001, store credit included, give the customer $0.30 more than they paid.");
    const items = exposureFacts(row({ classes: '["more back than paid"]', observed: observed([]) }), refund);
    expect(exposureSentence("MORE_BACK_THAN_PAID", items)).toBe("An item of #1001 was refunded more times than it was bought.");
  });

  it("stored JSON it cannot read says nothing rather than failing the pass", () => {
    const facts = exposureFacts(row({ classes: "not json", reasons: "{}", observed: '{"order_money":1}' }), refund);
    expect(facts).toMatchObject({ classes: [], reasons: [], overPaid: null, dispute: null });
    expect(exposureHeadline("CHARGEBACK_OPEN", facts, "UTC")).toBe("Chargeback open: answer the dispute with the refund's proof");
  });

  it("the dispute it names: one lost, else the open one due first", () => {
    const [early, late, lost, won] = [
      dispute("UNDER_REVIEW", { id: "a", evidence_due_by: "2026-05-02T00:00:00Z" }),
      dispute("NEEDS_RESPONSE", { id: "b", evidence_due_by: "2026-05-09T00:00:00Z" }),
      dispute("LOST", { id: "c" }),
      dispute("WON", { id: "d" }),
    ];
    expect(disputeOfConcern([late, early, won])?.id).toBe("a");
    expect(disputeOfConcern([late, lost])?.id).toBe("c");
    expect(disputeOfConcern([won])).toBeNull();
  });
});

describe("the digest and the test alert", () => {
  it("the digest counts the day's refunds at risk twice by what puts them at risk", () => {
    const message = digestMessage(
      {
        shopName: "s",
        day: "2026-05-01",
        counts: { VERIFIED: 3 },
        previousCounts: {},
        atRisk: [],
        openReviews: 0,
        oldestOpen: null,
        atRiskTwice: [
          { headline: "Chargeback open", count: 2 },
          { headline: "Paid twice", count: 1 },
        ],
        links: { dashboard: "https://d", reviewQueue: "https://q" },
      },
      "UTC",
    );
    expect(message.text).toContain("Refunds whose money is at risk twice: 3 (2 × chargeback open, 1 × paid twice).");
  });

  it("a test alert says these will arrive when the choice is on", () => {
    expect(testAlert("s", ["AT_RISK_TWICE"], { settings: "https://x" }).text).toContain(
      "Refunds whose money is at risk twice (a chargeback on the refunded order, more back than paid) will be reported here.",
    );
    expect(testAlert("s", ["CONTRADICTED"], { settings: "https://x" }).text).not.toContain("at risk twice");
  });
});
