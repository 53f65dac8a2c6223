import { describe, expect, it } from "vitest";
import { duplicateOfInWords, earlierDuplicates, parseDuplicates, type RecordedRefund } from "../../app/verdicts/duplicates";

const refund = (id: number, createdAt: string, amount = "40.00"): RecordedRefund => ({
  id: `gid://shopify/Refund/${id}`,
  createdAt,
  totalRefundedSet: { presentmentMoney: { amount, currencyCode: "USD" } },
});
const usd = (amount: string) => `$${amount}`;
const words = (before: RecordedRefund[], at = "2026-11-29T10:10:00Z") =>
  duplicateOfInWords(earlierDuplicates(refund(100, at), [refund(100, at), ...before]), usd, "#1001");

describe("which refund a duplicate repeats, in a merchant's words", () => {
  it("says how long after the nearest earlier refund of that amount it was made", () => {
    expect(words([refund(1, "2026-11-29T10:09:57Z")])).toBe("made 3 seconds after another refund of $40.00 on #1001");
    expect(words([refund(1, "2026-11-29T10:08:30Z")])).toBe("made 90 seconds after another refund of $40.00 on #1001");
    expect(words([refund(1, "2026-11-29T10:05:00Z")])).toBe("made 5 minutes after another refund of $40.00 on #1001");
  });

  it("two refunds Shopify stamped with the same second: 'in the same second as', never '0 seconds after'", () => {
    expect(words([refund(1, "2026-11-29T10:10:00Z")])).toBe("made in the same second as another refund of $40.00 on #1001");
  });

  it("names the nearest and counts the rest", () => {
    expect(words([refund(1, "2026-11-29T10:02:00Z"), refund(2, "2026-11-29T10:09:59Z")])).toBe(
      "made 1 second after another refund of $40.00 on #1001 (and 1 more of that amount in the 10 minutes before it)",
    );
  });

  it("a stored observation that is not a duplicates output reads as none", () => {
    expect(parseDuplicates('{"count":"two"}')).toBeNull();
    expect(parseDuplicates("not json")).toBeNull();
    expect(parseDuplicates(null)).toBeNull();
    expect(parseDuplicates('{"count":0,"refunds":[]}')).toEqual({ count: 0, refunds: [], intended: false });
  });
});
