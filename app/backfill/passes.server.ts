import { runBackfillPass, type BackfillDeps } from "./backfill.server";

/** The worker's history pass: due backfills start their bulk read, read its result, and verify it. */
export function backfillPass(deps: BackfillDeps): () => Promise<number> {
  const pollMs = deps.pollMs ?? Number(process.env.BACKFILL_POLL_MS || 10_000);
  return () => runBackfillPass({ ...deps, pollMs });
}
