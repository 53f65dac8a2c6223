import type { QueryCost } from "./transport";

/**
 * Our view of one shop's GraphQL leaky bucket, from the last `throttleStatus` Shopify sent:
 * it refills at `restoreRate` points a second. Asking before sending keeps us from being
 * THROTTLED at all; Shopify's libraries do not do this for us.
 */
export class ThrottleGate {
  private available = Infinity;
  private maximum = Infinity;
  private restoreRate = 50;
  private atMs = 0;

  /** Nothing heard from Shopify yet: the bucket's state is unknown. */
  get unknown(): boolean {
    return this.available === Infinity;
  }

  observe(cost: QueryCost | undefined, nowMs: number): void {
    const status = cost?.throttleStatus;
    if (!status) return;
    this.available = status.currentlyAvailable;
    this.maximum = status.maximumAvailable;
    this.restoreRate = status.restoreRate;
    this.atMs = nowMs;
  }

  private current(nowMs: number): number {
    return Math.min(this.maximum, this.available + ((nowMs - this.atMs) / 1000) * this.restoreRate);
  }

  /** Milliseconds to wait before a request of this cost fits in the bucket. */
  waitMs(cost: number, nowMs: number): number {
    const missing = Math.min(cost, this.maximum) - this.current(nowMs);
    return missing <= 0 ? 0 : Math.ceil((missing / this.restoreRate) * 1000);
  }

  /** Counts a request as sent until Shopify's answer resyncs the view. */
  reserve(cost: number, nowMs: number): void {
    if (this.available === Infinity) return;
    this.available = this.current(nowMs) - cost;
    this.atMs = nowMs;
  }
}
