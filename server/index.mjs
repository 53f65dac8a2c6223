#!/usr/bin/env node
// `npm start`: serves the built app (build/server/index.js) on PORT (default 3000), HOST if set.
// WEB_CONCURRENCY=N runs N app processes on the one port (Node's cluster; a process that dies is
// replaced, after a pause if it died young). Each runs the in-app worker unless VERIFIER_WORKER=off;
// `npm run worker` adds more. Every setting comes from the app's configuration (app/lib/config/),
// checked before anything starts: a missing or malformed one stops here with a sentence naming it.
import cluster from "node:cluster";
import { fileURLToPath, pathToFileURL } from "node:url";

process.env.NODE_ENV ??= "production";
let build;
let config;
try {
  build = await import(pathToFileURL(fileURLToPath(new URL("../build/server/index.js", import.meta.url))).href);
  config = build.entry.module.appConfig();
} catch (error) {
  if (error?.name !== "ConfigError") throw error;
  console.error(`[server] ${error.message}`);
  process.exit(1);
}

if (cluster.isPrimary && config.WEB_CONCURRENCY > 1) {
  let stopping = false;
  let alive = 0;
  const started = new Map();
  const fork = () => {
    const worker = cluster.fork();
    alive++;
    started.set(worker.id, Date.now());
  };
  for (let i = 0; i < config.WEB_CONCURRENCY; i++) fork();
  cluster.on("exit", (worker, code, signal) => {
    alive--;
    if (stopping) {
      if (alive === 0) process.exit(0);
      return;
    }
    // One that dies at start (no build, a wrong DATABASE_URL) would otherwise be restarted in a tight loop.
    const young = Date.now() - (started.get(worker.id) ?? 0) < 5_000;
    console.error(`[server] app process ${worker.process.pid} exited (${signal ?? code}); starting another${young ? " in 5 s" : ""}`);
    setTimeout(fork, young ? 5_000 : 0);
  });
  for (const signal of ["SIGTERM", "SIGINT"]) {
    process.once(signal, () => {
      stopping = true;
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill("SIGTERM");
      setTimeout(() => process.exit(0), 10_000).unref();
    });
  }
} else {
  const { createAppListener, createAppServer } = await import("./listener.mjs");
  const server = createAppServer(build, createAppListener(build));
  const onListen = () => console.log(`[server] http://localhost:${config.PORT} (process ${process.pid})`);
  if (config.HOST) server.listen(config.PORT, config.HOST, onListen);
  else server.listen(config.PORT, onListen);
  for (const signal of ["SIGTERM", "SIGINT"]) {
    process.once(signal, () => {
      // A connection whose request ends from now on closes with it, not after KEEP_ALIVE_MS of idleness.
      server.keepAliveTimeout = 1;
      server.close(() => process.exit(0));
      server.closeIdleConnections();
      setTimeout(() => process.exit(0), 5000).unref();
    });
  }
}
