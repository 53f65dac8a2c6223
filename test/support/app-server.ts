import { createServer, type RequestListener, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { ServerBuild } from "@remix-run/node";
import { FakeShopify } from "../../fake-shopify/server";
import { toWebRequest } from "../../fake-shopify/node-request";
import { createTestDatabase } from "./database";
import { TEST_APP } from "./credentials";
import { reloadConfig } from "../../app/lib/config/env.server";

export interface TestApp {
  url: string;
  shopify: FakeShopify;
  databaseUrl: string;
  close: () => Promise<void>;
}

/** Serves a web-standard request handler over real HTTP on loopback. */
export async function serveHandler(handler: (request: Request) => Promise<Response>): Promise<{ url: string; server: Server }> {
  const server = createServer(async (req, res) => {
    const request = toWebRequest(req);
    try {
      const response = await handler(request);
      res.writeHead(response.status, [...response.headers].flat());
      if (response.body) for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) res.write(chunk);
      res.end();
    } catch (error) {
      console.error(error);
      res.writeHead(500).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/**
 * The built app (build/server/index.js, through the listener `npm start` serves it with) on its own database, talking to
 * a fake Shopify over HTTP. One per test file: the app reads its configuration when first imported.
 */
export async function startTestApp(
  options: { env?: Record<string, string>; bucket?: { maximumAvailable?: number; restoreRate?: number } } = {},
): Promise<TestApp> {
  const shopify = new FakeShopify(TEST_APP, options.bucket);
  const shopifyOrigin = await shopify.listen();
  const database = await createTestDatabase();
  Object.assign(process.env, {
    NODE_ENV: "production",
    DATABASE_URL: database.url,
    SHOPIFY_API_KEY: TEST_APP.apiKey,
    SHOPIFY_API_SECRET: TEST_APP.secret,
    SESSION_SECRET_KEY: TEST_APP.sessionSecretKey,
    SCOPES: TEST_APP.scopes,
    SHOPIFY_ADMIN_API_ORIGIN: shopifyOrigin,
    ...options.env,
  });
  let listener: RequestListener = (_req, res) => void res.writeHead(503).end("starting");
  // Idle connections kept as `npm start` keeps them (a client's reused connection is not closed under it).
  const { KEEP_ALIVE_MS } = (await import(new URL("../../server/listener.mjs", import.meta.url).href)) as { KEEP_ALIVE_MS: number };
  const server = createServer({ keepAliveTimeout: KEEP_ALIVE_MS }, (req, res) => listener(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  process.env.SHOPIFY_APP_URL = url;
  reloadConfig();
  // By URL: on a fresh clone the build does not exist until the global setup has run it, and tsc must not look for it.
  const build = (await import(new URL("../../build/server/index.js", import.meta.url).href)) as ServerBuild;
  // The listener `npm start` serves: refunds/create by the intake's Node handler, the rest by Remix.
  const { createAppListener } = (await import(new URL("../../server/listener.mjs", import.meta.url).href)) as {
    createAppListener: (build: ServerBuild, mode: string) => RequestListener;
  };
  listener = createAppListener(build, "production");
  return {
    url,
    shopify,
    databaseUrl: database.url,
    close: async () => {
      await globalThis.refundVerifierWorker?.stop();
      globalThis.refundVerifierWorker = undefined;
      // As `npm start` stops: connections close as their requests end, not after KEEP_ALIVE_MS.
      server.keepAliveTimeout = 1;
      await new Promise((resolve) => {
        server.close(resolve);
        server.closeIdleConnections();
      });
      await shopify.close();
      await database.drop();
    },
  };
}
