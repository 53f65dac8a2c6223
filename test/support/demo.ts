import type { createPrismaClient } from "../../app/db/client";

type Db = ReturnType<typeof createPrismaClient>;

const pause = () => new Promise((resolve) => setTimeout(resolve, 200));

/**
 * Waits until the demo's refunds have verdicts. The app acknowledges a delivery before its operation
 * exists (its worker opens it on the next pass), so first every stored delivery is opened; then no
 * operation is left PENDING (`dueOnly`: none left that is already due, for a test that wants some
 * still waiting out the contract's 20 s stale-read window).
 */
export async function untilDemoDecided(db: Db, { dueOnly = false, timeoutMs = 60_000 } = {}): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && (await db.webhookDelivery.count({ where: { openedAt: null } })) > 0) await pause();
  const pending = () => db.operation.count({ where: { status: "PENDING", ...(dueOnly ? { nextDueAt: { lte: new Date() } } : {}) } });
  while (Date.now() < deadline && (await pending()) > 0) await pause();
}
