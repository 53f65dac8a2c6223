/**
 * Waits for a state, not for a time: asks `probe` every 20 ms until it answers something truthy,
 * and fails naming `what` after `timeoutMs` (a bound for a broken run, never a guess at how long a
 * healthy one takes).
 */
export async function waitFor<T>(
  what: string,
  probe: () => T | undefined | null | false | Promise<T | undefined | null | false>,
  timeoutMs = 120_000,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
