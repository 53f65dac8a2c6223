import { vitePlugin as remix } from "@remix-run/dev";
import { defineConfig, type UserConfig } from "vite";
import tsconfigPaths from "vite-tsconfig-paths";
import { unusedPolarisCss } from "./vite.polaris-css";

declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
}

// `shopify app dev` passes its tunnel's URL as HOST (and APP_URL), never as SHOPIFY_APP_URL, which this file and
// app/shopify.server.ts read; the Remix dev server, which runs in this process, would also take HOST for an address.
// A HOST that is an address (`npm start`'s, e.g. 0.0.0.0) is left alone.
const cliHost = process.env.HOST;
if (cliHost && /^https?:\/\//.test(cliHost) && (!process.env.SHOPIFY_APP_URL || process.env.SHOPIFY_APP_URL === cliHost)) {
  process.env.SHOPIFY_APP_URL = cliHost;
  delete process.env.HOST;
}

const host = new URL(process.env.SHOPIFY_APP_URL || "http://localhost").hostname;
const hmrConfig =
  host === "localhost"
    ? { protocol: "ws", host: "localhost", port: 64999, clientPort: 64999 }
    : { protocol: "wss", host, port: parseInt(process.env.FRONTEND_PORT!) || 8002, clientPort: 443 };

export default defineConfig({
  server: {
    allowedHosts: [host],
    cors: { preflightContinue: true },
    port: Number(process.env.PORT || 3000),
    hmr: hmrConfig,
    fs: { allow: ["app", "node_modules"] },
  },
  plugins: [
    remix({
      ignoredRouteFiles: ["**/.*"],
      future: {
        v3_fetcherPersist: true,
        v3_relativeSplatPath: true,
        v3_throwAbortReason: true,
        v3_lazyRouteDiscovery: true,
        v3_singleFetch: true,
        v3_routeConfig: true,
      },
    }),
    tsconfigPaths(),
    unusedPolarisCss(),
  ],
  build: { assetsInlineLimit: 0 },
  optimizeDeps: { include: ["@shopify/app-bridge-react", "@shopify/polaris"] },
}) satisfies UserConfig;
