import { runBackfillPass, type BackfillDeps } from "./backfill.server";
import { config } from "../config/env.server";

/** The worker's history pass: due backfills start their bulk read, read its result, and verify it. */
export function backfillPass(deps: BackfillDeps): () => Promise<number> {
  const pollMs = deps.pollMs ?? config().BACKFILL_POLL_MS;
  return () => runBackfillPass({ ...deps, pollMs });
}
