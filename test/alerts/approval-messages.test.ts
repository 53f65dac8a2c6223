import { describe, expect, it } from "vitest";
import { askKey, askMessage, decisionKey, declinedMessage, expiredMessage, requestOfAskKey, type RequestFacts } from "../../app/alerts/approval-messages";

const facts: RequestFacts = {
  shopName: "s",
  askedBy: "Sam Lee",
  amount: "$180.00",
  orderName: "#1001",
  limits: "$180.00 is over the shop's limit of $100.00 per refund.",
  note: null,
  expiresAt: new Date("2026-12-02T14:05:00Z"),
  requestUrl: "https://admin.shopify.com/store/s/apps/k/approvals/req-1",
};

describe("messages about a refund request", () => {
  it("asking: the expiry in the shop's time zone, the link; what the person who asked typed cannot mention a Slack channel or hide a link", () => {
    const message = askMessage({ ...facts, note: "<!channel> see <https://evil.test|the photos> & more" }, "America/New_York");
    expect(message.text).toContain("It waits for an approver until Dec 2, 2026, 9:05 AM EST; then it expires and nothing is refunded.");
    expect(message.text).toContain("The refund's note: <!channel> see <https://evil.test|the photos> & more");
    const slack = JSON.stringify(message.slack);
    expect(slack).toContain("&lt;!channel&gt; see &lt;https://evil.test|the photos&gt; &amp; more");
    expect(slack).toContain("<https://admin.shopify.com/store/s/apps/k/approvals/req-1|Approve or decline>");
    expect(message.html).toContain("&lt;!channel&gt;");
  });

  it("asking with limits that could not be read still says where to look", () => {
    expect(askMessage({ ...facts, limits: "" }, "UTC").text).toContain("over the shop's refund limits: the request's page says which.");
  });

  it("a decline: the approver's reason without a doubled full stop, or 'no reason given' once it was taken off (a customer's redaction)", () => {
    expect(declinedMessage(facts, { by: "Ada Lovelace", reason: "Already refunded in store." }).text).toContain(
      "Ada Lovelace declined your refund of $180.00 on #1001: Already refunded in store. Nothing was refunded.",
    );
    expect(declinedMessage(facts, { by: "Ada Lovelace", reason: null }).text).toContain(": no reason given. Nothing was refunded.");
  });

  it("an expiry says when, in the shop's time zone", () => {
    expect(expiredMessage(facts, "Europe/Paris").text).toContain("it expired at Dec 2, 2026, 3:05 PM GMT+1.");
  });

  it("each message's key names its request, channel and recipient; only an asking key is read back as one", () => {
    expect(askKey("req-1", "email", "88")).toBe("approval:req-1:asked:email:88");
    expect(requestOfAskKey(askKey("req-1", "slack", "shop"))).toBe("req-1");
    expect(requestOfAskKey(decisionKey("req-1", "77"))).toBeNull();
    expect(requestOfAskKey("instant:req-1:email")).toBeNull();
  });
});
