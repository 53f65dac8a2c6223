import { join } from "node:path";
import { loadConfigFromFile } from "vite";
import { afterEach, describe, expect, it } from "vitest";

const root = new URL("../..", import.meta.url).pathname;
const saved = { HOST: process.env.HOST, SHOPIFY_APP_URL: process.env.SHOPIFY_APP_URL };
afterEach(() => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

describe("the dev server under `shopify app dev`", () => {
  it("takes the tunnel's URL the CLI passes as HOST for the app's URL, and lets requests for the tunnel's host in", async () => {
    // What Shopify's CLI 4.8.2 sets for the web process: HOST and APP_URL (the tunnel), no SHOPIFY_APP_URL.
    process.env.HOST = "https://refund-verifier-dev.trycloudflare.com";
    delete process.env.SHOPIFY_APP_URL;
    const loaded = await loadConfigFromFile({ command: "serve", mode: "development" }, join(root, "vite.config.ts"));
    // Vite answers "Blocked request. This host is not allowed." for a host not in allowedHosts.
    expect(loaded?.config.server?.allowedHosts).toEqual(["refund-verifier-dev.trycloudflare.com"]);
    expect(process.env.SHOPIFY_APP_URL).toBe("https://refund-verifier-dev.trycloudflare.com");
    expect(process.env.HOST).toBeUndefined();
  });

  it("leaves a listening address in HOST alone (`npm run build` where `npm start` will listen on HOST)", async () => {
    process.env.HOST = "0.0.0.0";
    delete process.env.SHOPIFY_APP_URL;
    const loaded = await loadConfigFromFile({ command: "build", mode: "production" }, join(root, "vite.config.ts"));
    expect(loaded?.config.server?.allowedHosts).toEqual(["localhost"]);
    expect(process.env.HOST).toBe("0.0.0.0");
  });
});
