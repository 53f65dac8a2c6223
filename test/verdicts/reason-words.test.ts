import { describe, expect, it } from "vitest";
import { CONTRACT_VERSIONS } from "../../app/contracts/registry.server";
import { classLabel, reasonInWords, reasonSentence } from "../../app/verdicts/words";

// What a merchant reads, on a row, in an email, a Slack message or a Flow payload, is never the
// contract's engineering text nor one of its codes: every reason of every contract version has a
// merchant's sentence, and a new reason without one fails here.
const ENGINE_WORDS = /\b(operation|observation|evaluation|attempt|webhook|provider|API|readback|channel)\b|_/i;
const facts = { requested: { amount: "20.57", currency: "USD" }, recorded: { amount: "21.00", currency: "USD" } };
const versions = [...CONTRACT_VERSIONS.values()].map(({ contract }) => contract);

describe("every reason code and class of every contract version has a merchant's words", () => {
  it("covers all nine contract versions", () => {
    expect(versions.map((c) => `${c.id}@${c.version}`).sort()).toEqual([
      "shopify.refund.created@1.0.0",
      "shopify.refund.created@1.1.0",
      "shopify.refund.created@1.2.0",
      "shopify.refund.created@1.3.0",
      "shopify.refund.exposure@1.0.0",
      "shopify.refund.history@1.0.0",
      "shopify.refund.history@1.1.0",
      "shopify.refund.settled@1.0.0",
      "shopify.refund.settled@1.1.0",
    ]);
  });

  for (const contract of versions) {
    const reasons = [...contract.contradicted_when.map((c) => ({ id: c.id, text: c.reason })), ...contract.rules.map((r) => ({ id: r.id, text: r.reason }))];
    for (const { id, text } of reasons)
      it(`${contract.id}@${contract.version}: ${id}`, () => {
        const sentence = reasonSentence(id, facts);
        expect(sentence, `no merchant sentence for ${id}`).toBeTypeOf("string");
        expect(sentence).not.toBe(text);
        expect(sentence).not.toMatch(ENGINE_WORDS);
      });
    for (const contradiction of contract.contradicted_when)
      it(`${contract.id}@${contract.version}: class ${contradiction.class}`, () => {
        expect(classLabel(contradiction.class)).not.toBe(contradiction.class);
      });
  }

  it("a wrong amount says both amounts and the difference, exactly", () => {
    expect(reasonSentence("refund_amount_mismatch", facts)).toBe("Shopify recorded $21.00; the refund asked for $20.57 ($0.43 more).");
    expect(reasonSentence("refund_amount_mismatch", { requested: facts.requested, recorded: null })).toBe(
      "Shopify recorded a different amount than the $20.57 the refund asked for.",
    );
  });

  it("a refund still being checked shows no reason, whatever its evidence points to so far", () => {
    const contract = CONTRACT_VERSIONS.get("shopify.refund.created@1.2.0")!.contract;
    expect(reasonInWords(contract, "PENDING", "duplicate_refund_present", facts)).toBe("Being checked with Shopify; the verdict follows shortly.");
  });

  it("verdicts without a reason code speak a merchant's words too", () => {
    for (const contract of versions)
      for (const status of ["VERIFIED", "UNVERIFIABLE", "CONTRADICTED", "FAILED"])
        expect(reasonInWords(contract, status, null, facts)).not.toMatch(ENGINE_WORDS);
  });
});
