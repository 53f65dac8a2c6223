// The app's HTTP listener, shared by `npm start` (server/index.mjs) and the tests: refunds/create
// deliveries go straight to the intake's Node handler; everything else to Remix behind express,
// with the static files and compression remix-serve gave. Every request body is bounded here,
// before Remix reads any of it.
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import compression from "compression";
import express from "express";
import { createRequestHandler, writeReadableStreamToWritable } from "@remix-run/node";

const root = fileURLToPath(new URL("..", import.meta.url));

/** A form (the app's own pages post small ones: a note is at most 2,000 characters) and anything else (webhooks: Shopify's largest payloads). */
export const FORM_BODY_LIMIT = 64 * 1024;
export const BODY_LIMIT = 1024 * 1024;

const isForm = (req) => /^(application\/x-www-form-urlencoded|multipart\/form-data)/i.test(req.headers["content-type"] ?? "");

function requestHeaders(req) {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const each of value) headers.append(name, each);
    else if (value !== undefined) headers.set(name, value);
  }
  return headers;
}

/**
 * Every request carries its id in X-Request-Id before Remix sees it: the one a proxy sent, else a new
 * one. Its log lines, its answer's header and its error page's reference then say the same id,
 * whatever copy of the request a loader is handed (app/lib/http/request-id.server.ts).
 */
function withRequestId(headers) {
  if (!/^[\w.-]{1,64}$/.test(headers.get("x-request-id") ?? "")) headers.set("x-request-id", randomUUID());
  return headers;
}

async function sendResponse(res, response) {
  res.statusMessage = response.statusText;
  res.status(response.status);
  for (const [name, value] of response.headers.entries()) res.append(name, value);
  if (response.body) await writeReadableStreamToWritable(response.body, res);
  else res.end();
}

/** Remix, with the body handed over already read (and bounded): as @remix-run/express does it, but never streaming an unbounded body into the app. */
function boundedRemix(build, mode) {
  const handle = createRequestHandler(build, mode);
  // The app's one bounded body reader and its 413 (app/lib/http/), from the build.
  const { readNodeBody, refuseTooLarge } = build.entry.module;
  return async (req, res, next) => {
    try {
      const limit = isForm(req) ? FORM_BODY_LIMIT : BODY_LIMIT;
      const hasBody = req.method !== "GET" && req.method !== "HEAD";
      const body = hasBody ? await readNodeBody(req, limit) : undefined;
      if (body === null) return refuseTooLarge(req, res, `Request body too large (at most ${limit / 1024} KiB)`);
      const controller = new AbortController();
      res.once("close", () => res.writableFinished || controller.abort());
      const url = new URL(`${req.protocol}://${req.get("host") ?? "localhost"}${req.originalUrl}`);
      const request = new Request(url.href, {
        method: req.method,
        headers: withRequestId(requestHeaders(req)),
        body: hasBody ? body : undefined,
        signal: controller.signal,
      });
      await sendResponse(res, await handle(request));
    } catch (error) {
      next(error);
    }
  };
}

/** @param {import("@remix-run/node").ServerBuild} build */
export function createAppListener(build, mode = build.entry.module.appConfig().NODE_ENV) {
  const app = express();
  app.disable("x-powered-by");
  app.use(compression());
  app.use(build.publicPath, express.static(resolve(root, build.assetsBuildDirectory), { immutable: true, maxAge: "1y" }));
  app.use(express.static(resolve(root, "public"), { maxAge: "1h" }));
  app.all("*", boundedRemix(build, mode));
  const intake = build.entry.module.handleRefundDeliveryNode;
  if (typeof intake !== "function") throw new Error("the server build does not export handleRefundDeliveryNode from app/entry.server.tsx");
  build.entry.module.startInAppWorker();
  return (req, res) => {
    if (!intake(req, res)) app(req, res);
  };
}

/**
 * The app's HTTP server. A slow client (headers or a body trickling in a byte at a time) is cut
 * off: Node's defaults let a request take 300 s, checked every 30 s. A proxy in front should bound
 * them too (README, "Security").
 * @param {import("@remix-run/node").ServerBuild} build
 * @param {import("node:http").RequestListener} listener
 */
export function createAppServer(build, listener) {
  const config = build.entry.module.appConfig();
  return createServer(
    {
      headersTimeout: config.HTTP_HEADERS_TIMEOUT_MS,
      requestTimeout: config.HTTP_REQUEST_TIMEOUT_MS,
      connectionsCheckingInterval: 1_000,
      keepAliveTimeout: KEEP_ALIVE_MS,
    },
    listener,
  );
}

/**
 * How long an idle kept-alive connection stays open: longer than the 60 s a load balancer or proxy
 * in front of the app typically keeps one, since Node's 5 s default closes it under their feet (a
 * reset or a 502 for a request sent on it). A client that reads the Keep-Alive hint drops it a
 * little before; the race is left at 63-65 s of idleness instead of 3-5 s. At 5 s a busy machine
 * (issue 29) stalled a test's client between choosing a connection and writing on it:
 * `fetch failed: ECONNRESET` once in six stressed runs.
 */
export const KEEP_ALIVE_MS = 65_000;
