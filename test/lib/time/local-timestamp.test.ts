import { describe, expect, it } from "vitest";
import { localTimestamp } from "../../../app/lib/time/format";

// The CSV's times: the shop's wall clock to the second, with the offset that makes it one instant.
describe("localTimestamp", () => {
  it("writes the shop's wall clock and its offset, half and quarter hours included", () => {
    expect(localTimestamp("2026-12-01T14:03:22.950Z", "America/New_York")).toBe("2026-12-01 09:03:22 -05:00");
    expect(localTimestamp("2026-07-01T14:03:22Z", "America/New_York")).toBe("2026-07-01 10:03:22 -04:00");
    expect(localTimestamp("2026-12-01T14:03:22Z", "Asia/Kolkata")).toBe("2026-12-01 19:33:22 +05:30");
    expect(localTimestamp("2026-12-01T14:03:22Z", "Asia/Kathmandu")).toBe("2026-12-01 19:48:22 +05:45");
    expect(localTimestamp("2026-12-01T23:59:59Z", "UTC")).toBe("2026-12-01 23:59:59 +00:00");
    expect(localTimestamp("2026-12-01T14:03:22Z", "Pacific/Marquesas")).toBe("2026-12-01 04:33:22 -09:30");
  });
});
