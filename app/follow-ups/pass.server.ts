import { noteTotal, runRowWork, runShopWork, type Helpers, type ShopByShopWork, type ShopWork } from "../work/runner.server";
import type { FollowUp, FollowUpOptions, FollowUpQueue } from "./follow-up";
import { openFollowUps } from "./open.server";

/**
 * What one pass of a follow-up came to: rows opened for refunds newly verified, rows due read and
 * judged, and the judgements it noted (what its judge writes to the log and hands `afterPass`: a
 * settlement's verdict reached; a refund newly at risk twice).
 */
export interface FollowUpPassResult {
  opened: number;
  read: number;
  noted: number;
}

/** The opener as work of the job library: the shops it looks at, each opened for by its cursor. It claims nothing: a row is created once (unique refund). */
function openingWork(followUp: FollowUp, options: FollowUpOptions): ShopWork {
  return {
    name: `${followUp.name} opening`,
    shops: ({ db }) => followUp.shops(db),
    async handle(shop, helpers) {
      if (followUp.opensFor && !(await followUp.opensFor(shop, helpers, options))) return;
      const opened = await openFollowUps(followUp, helpers.db, shop, helpers.now());
      return opened ? { opened } : undefined;
    },
  };
}

/** The judging as work of the job library: a shop's due rows read and judged together, shop by shop. */
function judgingWork<Q extends FollowUpQueue>(followUp: FollowUp<Q>, options: FollowUpOptions): ShopByShopWork<Q> {
  const { batch, maxShops, concurrency, judge } = followUp.judging;
  return {
    name: followUp.name,
    queue: followUp.queue,
    perShop: true,
    maxShops,
    concurrency,
    batch,
    leaseMs: options.leaseMs,
    handle: (rows, helpers) => judge(rows, helpers, options),
  };
}

/** The worker's pass of a follow-up (decision 036): its refunds newly verified are opened, then every row due is read and judged, shop by shop. */
export function followUpPass<Q extends FollowUpQueue>(followUp: FollowUp<Q>, options: FollowUpOptions): (helpers: Helpers) => Promise<FollowUpPassResult> {
  const [opening, judging] = [openingWork(followUp as FollowUp, options), judgingWork(followUp, options)];
  return async (helpers) => {
    const { notes } = await runShopWork(opening, helpers);
    const pass = await runRowWork(judging, helpers);
    await followUp.afterPass?.(pass.notes, helpers.db);
    return { opened: noteTotal(notes, "opened"), read: pass.claimed, noted: pass.notes.length };
  };
}
