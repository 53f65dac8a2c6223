import { describe, expect, it } from "vitest";
import { knowledgeOf, moneyHeadline, type SettlementFacts } from "../../app/settlement/words";

// What the evidence page's money card says of a settlement that ended without following the money.

const DAY = 86_400_000;
const startedAt = new Date("2026-10-01T12:00:00Z");
const settlement = (facts: Partial<SettlementFacts>): SettlementFacts => ({
  status: "PENDING",
  money: "awaiting_ledger",
  arn: null,
  payoutGid: null,
  payoutStatus: null,
  processedAt: null,
  startedAt,
  decidedAt: null,
  ...facts,
});
const headline = (facts: Partial<SettlementFacts>) =>
  moneyHeadline(knowledgeOf(settlement(facts), "VERIFIED", "active", new Date(startedAt.getTime() + 60 * DAY)));

describe("the money card of a settlement that ended unfollowed", () => {
  it("with nothing to follow (no readable record of money moved): says so, never that time ran out", () => {
    const said = headline({ status: "NOT_FOLLOWED", money: "not_followed", decidedAt: startedAt });
    expect(said.title).toBe("Not followed to the payout");
    expect(said.detail).toContain("no readable record of money");
    expect(said.detail).not.toMatch(/days/);
  });

  it("unread until its contract's timeout: says how many days the app tried, from the settlement itself", () => {
    const said = headline({ status: "NOT_FOLLOWED", money: "awaiting_ledger", decidedAt: new Date(startedAt.getTime() + 50 * DAY) });
    expect(said.title).toBe("No longer followed");
    expect(said.detail).toContain("within 50 days of the refund");
  });

  it("never paid out by the timeout: the days it waited", () => {
    const said = headline({ status: "UNVERIFIABLE", money: "in_ledger", decidedAt: new Date(startedAt.getTime() + 50 * DAY) });
    expect(said).toMatchObject({ title: "Never settled", tone: "warning" });
    expect(said.detail).toBe("The refund's payout was not paid within 50 days of the refund.");
  });
});
