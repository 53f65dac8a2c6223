import { logger } from "./lib/logging/logger.server";
import { renderToPipeableStream } from "react-dom/server";
import { RemixServer } from "@remix-run/react";
import { createReadableStreamFromReadable, type EntryContext } from "@remix-run/node";
import { isbot } from "isbot";
import { addDocumentResponseHeaders, whenInstalled } from "./shopify.server";
import { firstBackfillOnInstall } from "./backfill/request.server";
import db from "./db.server";
import { allowSimulatedAdminToFrame, preloadConfiguredAppBridge } from "./shopify/loopback.server";
import { startInAppWorker } from "./worker.server";
import { RequestIdContext } from "./lib/logging/request-id";
import { scriptsAfterFirstPaintStream } from "./lib/http/scripts-after-paint.server";
import { requestIdOf as requestId } from "./lib/http/request-id.server";
import type { HandleDataRequestFunction, HandleErrorFunction } from "@remix-run/node";

// For server/listener.mjs and server/index.mjs: refunds/create is served by this handler before
// Remix; the configuration (parsed as this module loads: a bad value stops the start); the in-app
// worker, started by the listener (so that importing the build starts nothing).
export { handleRefundDeliveryNode } from "./webhooks/node-intake.server";
export { refuseTooLarge } from "./lib/http/too-large.server";
export { readNodeBody } from "./lib/http/bounded-body.server";
export { config as appConfig } from "./lib/config/env.server";
export { startInAppWorker };

// A new shop's history is verified once, on install (shopify.server.ts imports no capability: it is handed the step here).
whenInstalled("history backfill", (shop, now) => firstBackfillOnInstall(db, shop, now));

export const streamTimeout = 5000;

export default async function handleRequest(request: Request, responseStatusCode: number, responseHeaders: Headers, remixContext: EntryContext) {
  addDocumentResponseHeaders(request, responseHeaders);
  responseHeaders.set("X-Request-Id", requestId(request));
  allowSimulatedAdminToFrame(responseHeaders);
  preloadConfiguredAppBridge(responseHeaders);
  const userAgent = request.headers.get("user-agent");
  const callbackName = isbot(userAgent ?? "") ? "onAllReady" : "onShellReady";

  return new Promise((resolve, reject) => {
    const { pipe, abort } = renderToPipeableStream(
      <RequestIdContext.Provider value={requestId(request)}>
        <RemixServer context={remixContext} url={request.url} />
      </RequestIdContext.Provider>,
      {
        [callbackName]: () => {
          const body = scriptsAfterFirstPaintStream();
          const stream = createReadableStreamFromReadable(body);
          responseHeaders.set("Content-Type", "text/html");
          resolve(new Response(stream, { headers: responseHeaders, status: responseStatusCode }));
          pipe(body);
        },
        onShellError(error) {
          reject(error);
        },
        onError(error) {
          responseStatusCode = 500;
          logger.error({ err: error, requestId: requestId(request), path: new URL(request.url).pathname }, "rendering failed");
        },
      },
    );
    // Let React's rendering finish before Remix gives up on a deferred stream.
    setTimeout(abort, streamTimeout + 1000);
  });
}

export const handleDataRequest: HandleDataRequestFunction = (response, { request }) => {
  response.headers.set("X-Request-Id", requestId(request));
  return response;
};

/** Every error a loader or action throws is logged once with its request id; the person sees a sentence, never the message. */
export const handleError: HandleErrorFunction = (error, { request }) => {
  if (request.signal.aborted) return;
  logger.error({ err: error, requestId: requestId(request), method: request.method, path: new URL(request.url).pathname }, "request failed");
};
