/**
 * On SQLite every statement runs synchronously under its promise: a loop of thousands of them (a
 * history verified refund after refund) never gives the event loop a turn, and every request of
 * the process (another shop's page, a webhook with Shopify's 5 s deadline, a lease renewal) waits
 * for the whole loop. A long loop awaits `takeTurn()` after each step: once `everyMs` have passed
 * since the last turn, it lets the event loop run what waits (setImmediate: after pending I/O).
 */
export function turnTaker(everyMs = 10): () => Promise<void> {
  let last = performance.now();
  return async () => {
    if (performance.now() - last < everyMs) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    last = performance.now();
  };
}
