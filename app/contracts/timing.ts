import type { Contract } from "./schema";

type Timing = Contract["timing"];

/** The wait after attempt k (k = 1, 2, …): min(poll_interval × factor^(k−1), max). */
export function waitAfterAttempt(timing: Timing, attempt: number): number {
  const factor = timing.backoff.kind === "exponential" ? timing.backoff.factor : 1;
  return Math.min(timing.poll_interval_ms * factor ** (attempt - 1), timing.backoff.max_ms);
}

/** Milliseconds after the operation start of attempt n (1-based), or undefined once polls are spent or past the timeout. */
export function attemptOffset(timing: Timing, attempt: number): number | undefined {
  if (attempt < 1 || attempt > timing.max_attempts) return undefined;
  let offset = timing.initial_delay_ms;
  for (let k = 1; k < attempt; k++) offset += waitAfterAttempt(timing, k);
  return offset < timing.timeout_ms ? offset : undefined;
}

/** Every planned attempt, in milliseconds after the operation start. */
export function attemptSchedule(timing: Timing): number[] {
  const offsets: number[] = [];
  for (let attempt = 1; ; attempt++) {
    const offset = attemptOffset(timing, attempt);
    if (offset === undefined) return offsets;
    offsets.push(offset);
  }
}

/**
 * When the runtime should next look at an operation that has made `attemptsMade` polls: the next
 * poll, or the timeout once the polls are spent (pushed evidence may still arrive before then).
 */
export function nextCheckAt(timing: Timing, operationStartMs: number, attemptsMade: number): { atMs: number; kind: "poll" | "timeout" } {
  const offset = attemptOffset(timing, attemptsMade + 1);
  return offset === undefined
    ? { atMs: operationStartMs + timing.timeout_ms, kind: "timeout" }
    : { atMs: operationStartMs + offset, kind: "poll" };
}
