#!/usr/bin/env node
// `npm start`: serves the built app (build/server/index.js) on PORT (default 3000), HOST if set.
// WEB_CONCURRENCY=N runs N app processes on the one port (Node's cluster; a process that dies is
// replaced). Each runs the in-app worker unless VERIFIER_WORKER=off; `npm run worker` adds more.
import cluster from "node:cluster";
import { createServer } from "node:http";
import { pathToFileURL } from "node:url";
import { resolve } from "node:path";

process.env.NODE_ENV ??= "production";
const root = new URL("..", import.meta.url).pathname;
const processes = Math.max(1, Number(process.env.WEB_CONCURRENCY) || 1);
const port = Number(process.env.PORT) || 3000;

if (cluster.isPrimary && processes > 1) {
  let stopping = false;
  for (let i = 0; i < processes; i++) cluster.fork();
  cluster.on("exit", (worker, code, signal) => {
    if (stopping) return;
    console.error(`[server] app process ${worker.process.pid} exited (${signal ?? code}); starting another`);
    cluster.fork();
  });
  for (const signal of ["SIGTERM", "SIGINT"]) {
    process.once(signal, () => {
      stopping = true;
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill("SIGTERM");
      cluster.on("exit", () => Object.keys(cluster.workers ?? {}).length === 0 && process.exit(0));
    });
  }
} else {
  const { createAppListener } = await import("./listener.mjs");
  const build = await import(pathToFileURL(resolve(root, "build/server/index.js")).href);
  const server = createServer(createAppListener(build));
  const onListen = () => console.log(`[server] http://localhost:${port} (process ${process.pid})`);
  if (process.env.HOST) server.listen(port, process.env.HOST, onListen);
  else server.listen(port, onListen);
  for (const signal of ["SIGTERM", "SIGINT"]) {
    process.once(signal, () => {
      server.close(() => process.exit(0));
      server.closeIdleConnections();
      setTimeout(() => process.exit(0), 5000).unref();
    });
  }
}
