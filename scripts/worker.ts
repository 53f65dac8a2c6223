// `npm run worker`: the verification worker as its own process, for scale. Run the app with
// VERIFIER_WORKER=off beside it, or not: workers share the database and never take the same
// operation twice.
import { logger } from "../app/lib/logging/logger.server";
import { createWorker } from "../app/worker.server";

const worker = createWorker();
worker.start();
logger.info({ worker: worker.deps.workerId }, "worker started");
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    void worker.stop().then(() => process.exit(0));
  });
}
