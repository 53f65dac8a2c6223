import { noteTotal, runRowWork, runShopWork, type Helpers, type ShopWork } from "../work/runner.server";
import { exposureWork, type ExposureOptions } from "./judge.server";
import { openExposures } from "./open.server";
import { putOnReviewQueue } from "../verification/review-queue.server";

/**
 * Installed shops (an uninstall deletes the offline session) give their newly VERIFIED refunds an
 * Exposure, by their cursor. It claims nothing: an exposure is created once (unique operation).
 */
function openingWork(options: ExposureOptions): ShopWork {
  return {
    name: "exposure opening",
    shops: async ({ db }) => [...new Set((await db.session.findMany({ where: { isOnline: false }, select: { shop: true } })).map((s) => s.shop))],
    async handle(shop, { db, now }) {
      const opened = await openExposures(db, options.contract, shop, now());
      return opened ? { opened } : undefined;
    },
  };
}

/** The worker's exposure pass (contract shopify.refund.exposure): exposures are opened, then every one due is judged, shop by shop. */
export function exposurePass(options: ExposureOptions): (helpers: Helpers) => Promise<{ opened: number; judged: number }> {
  const [opening, judging] = [openingWork(options), exposureWork(options)];
  return async (helpers) => {
    const { notes } = await runShopWork(opening, helpers);
    const pass = await runRowWork(judging, helpers);
    const atRisk = pass.notes.flatMap((note) => (typeof note.operation === "string" ? [note.operation] : []));
    if (atRisk.length) await putOnReviewQueue(helpers.db, atRisk);
    return { opened: noteTotal(notes, "opened"), judged: pass.claimed };
  };
}
