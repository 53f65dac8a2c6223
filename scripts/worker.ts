// `npm run worker`: the verification worker as its own process, for scale. Run the app with
// VERIFIER_WORKER=off beside it, or not: workers share the database and never take the same
// operation twice.
import { createWorker } from "../app/verification/worker.server";

const worker = createWorker();
worker.start();
console.log(JSON.stringify({ level: "info", message: "worker started", worker: worker.deps.workerId }));
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    void worker.stop().then(() => process.exit(0));
  });
}
