import { lockName, type LockTimes } from "../lib/db/locks";

/**
 * How long the order's lock holds when its holder dies mid-issue. An issue is one read of the order
 * and at most three refundCreate calls (0.5 s and 1.5 s apart), each bounded by the request timeout
 * (10 s): well under a minute. Past this, the order is open again; a record the dead holder minted
 * still blocks it as an open attempt until it is closed.
 */
export const ORDER_LOCK_MS = 120_000;
/** How long a request waits for another holder of the order to finish before it gives up. */
const ORDER_LOCK_WAIT_MS = 20_000;

/**
 * The order's lock and the shop's limits' lock hold and wait alike: a double click's second request
 * waits for the first, runs after it has its answer, and sees it (decision 016).
 */
export const REFUND_LOCK_TIMES: LockTimes = { holdMs: ORDER_LOCK_MS, waitMs: ORDER_LOCK_WAIT_MS };

/** Refunds on one order are checked, minted and sent one at a time (decision 016). */
export const orderLock = (shop: string, orderGid: string) => lockName(shop, "order", orderGid);

/**
 * The shop's turn at its limits: while one refund is counted against what already left and minted,
 * no other refund of the shop is, so two refunds at the same instant cannot both fit under the last
 * of a limit (decision 030).
 */
export const shopLimitsLock = (shop: string) => lockName(shop, "shop-limits");
