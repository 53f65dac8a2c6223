import type { createPrismaClient } from "../../app/db/client";
import { waitFor } from "./wait";

type Db = ReturnType<typeof createPrismaClient>;

/**
 * Waits until the demo's refunds have verdicts. The app acknowledges a delivery before its operation
 * exists (its worker opens it on the next pass), so first every stored delivery is opened; then no
 * operation is left PENDING (`dueOnly`: none left that is already due, for a test that wants some
 * still waiting out the contract's 20 s stale-read window).
 */
export async function untilDemoDecided(db: Db, { dueOnly = false, timeoutMs = 180_000 } = {}): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const unopened = () => db.webhookDelivery.count({ where: { openedAt: null } });
  const pending = () => db.operation.count({ where: { status: "PENDING", ...(dueOnly ? { nextDueAt: { lte: new Date() } } : {}) } });
  for (const [left, what] of [
    [unopened, "deliveries not opened"],
    [pending, dueOnly ? "operations due and PENDING" : "operations PENDING"],
  ] as const) {
    let count = 0;
    await waitFor(`the demo to settle (${what})`, async () => (count = await left()) === 0, Math.max(deadline - Date.now(), 0)).catch(() => {
      throw new Error(`the demo did not settle within ${timeoutMs / 1000} s: ${count} ${what}`);
    });
  }
}
