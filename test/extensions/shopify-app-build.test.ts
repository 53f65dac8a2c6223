import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { runInThisContext } from "node:vm";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { root, runShopify, type CliRun } from "../support/shopify-cli";
import { waitFor } from "../support/wait";

// `shopify app build` is what `shopify app dev` and `shopify app deploy` run first: the same loader (every TOML
// checked against the CLI's own specifications) and the same bundler. It writes the bundle in place, under
// extensions/order-refund-verdicts/dist/ and manifest.json, which .gitignore covers.
const TARGET = "admin.order-details.block.render";
const extension = join(root, "extensions/order-refund-verdicts");
let build: CliRun;

beforeAll(async () => {
  build = await runShopify(["app", "build", "--path", root]);
}, 180_000);

describe("shopify app build (Shopify's CLI, offline)", () => {
  it("builds the app and its order block with no error and no warning", () => {
    expect(build.output).toContain("order-refund-verdicts successfully built");
    expect(build.output).toContain("Refund Verifier built!");
    expect(build.output).not.toMatch(/warn|error|✘|▲|deprecat|no longer supported/i);
    expect(build.status).toBe(0);
  });

  it("writes its output only where .gitignore covers it", () => {
    const written = ["manifest.json", ...readdirSync(join(extension, "dist")).map((file) => `dist/${file}`)];
    expect(written).toContain("dist/order-refund-verdicts.js");
    const ignored = execFileSync("git", ["check-ignore", ...written], { cwd: extension, encoding: "utf8" })
      .trim()
      .split("\n");
    expect(ignored).toEqual(written);
  });
});

interface Registration {
  target: string;
  run: () => Promise<void>;
}

describe("the built order block in the admin's extension runtime", () => {
  let bundle: string;
  let freshWindow: () => void;
  beforeAll(async () => {
    // Shopify runs each UI extension in a worker of its own, on remote-dom's DOM: the same polyfill, a new window each time.
    const { Window } = await import("@remote-dom/core/polyfill");
    freshWindow = () => Window.setGlobal(new Window());
    bundle = readFileSync(join(extension, "dist/order-refund-verdicts.js"), "utf8");
  });
  afterEach(() => vi.unstubAllGlobals());

  /** Evaluates the bundle as the admin does, with a stand-in `shopify` global for an order page and the app's answer. */
  function load(answer: () => Promise<Response>) {
    freshWindow();
    const registrations: Registration[] = [];
    const requests: string[] = [];
    vi.stubGlobal("shopify", {
      extension: { target: TARGET, apiVersion: "2026-10" },
      data: { selected: [{ id: "gid://shopify/Order/1001" }] },
      extend: (target: string, run: () => Promise<void>) => registrations.push({ target, run }),
    });
    vi.stubGlobal("fetch", (input: string) => {
      requests.push(String(input));
      return answer();
    });
    runInThisContext(bundle, { filename: "order-refund-verdicts.js" });
    return { registrations, requests };
  }
  const json = (body: unknown) => async () => new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json" } });
  const refund = (status: string, id: string) => ({ id, amount: "25.00", currency: "USD", status, reasonText: "why", reviewState: "none" });

  async function show(answer: () => Promise<Response>) {
    const { registrations, requests } = load(answer);
    expect(registrations.map((r) => r.target)).toEqual([TARGET]);
    await registrations[0].run();
    const block = await waitFor(
      "the block to show what the app answered",
      () => !document.querySelector("s-spinner") && document.querySelector("s-admin-block"),
    );
    const all = (selector: string) => [...block.querySelectorAll(selector)];
    return {
      requests,
      heading: block.getAttribute("heading"),
      text: block.textContent,
      badges: all("s-badge").map((badge) => [badge.getAttribute("tone"), badge.textContent]),
      links: all("s-link").map((link) => [link.textContent, link.getAttribute("href")]),
    };
  }

  it("registers its target exactly once", () => {
    const { registrations } = load(json({ order: "o", refunds: [] }));
    expect(registrations.map((r) => r.target)).toEqual([TARGET]);
  });

  it("shows a spinner until the app answers, having asked the app (relative URL) for this order's refunds", async () => {
    let answer!: (response: Response) => void;
    const { registrations, requests } = load(() => new Promise<Response>((resolve) => (answer = resolve)));
    await registrations[0].run();
    await waitFor("the block to ask the app", () => requests.length > 0);
    expect(requests).toEqual(["/app/api/orders/1001/refunds"]);
    expect(document.querySelector("s-admin-block")?.getAttribute("heading")).toBe("Refund verdicts");
    expect(document.querySelector("s-spinner")?.getAttribute("accessibilitylabel")).toBe("Loading refund verdicts");
    answer(new Response(JSON.stringify({ order: "o", refunds: [] }), { status: 200 }));
    await waitFor("the spinner to go", () => !document.querySelector("s-spinner"));
  });

  it("says so when the order has no refunds, and links to the app's refund form", async () => {
    const view = await show(json({ order: "gid://shopify/Order/1001", refunds: [] }));
    expect(view.heading).toBe("Refund verdicts");
    expect(view.badges).toEqual([["info", "No refunds on this order"]]);
    expect(view.links).toEqual([["Issue a refund from Refund Verifier", "app:app/orders/1001/refund"]]);
  });

  it("shows a verified refund with its amount and a link to its evidence in the app", async () => {
    const view = await show(json({ order: "o", refunds: [refund("VERIFIED", "op-1")] }));
    expect(view.badges).toEqual([
      ["success", "Refund verified"],
      ["success", "Verified"],
    ]);
    expect(view.text).toContain("25.00 USD");
    expect(view.links).toEqual([
      ["Details", "app:app/refunds/op-1"],
      ["Issue a refund from Refund Verifier", "app:app/orders/1001/refund"],
    ]);
  });

  it("puts a refund that needs a person first, in critical", async () => {
    const view = await show(json({ order: "o", refunds: [refund("VERIFIED", "op-1"), refund("FAILED", "op-2")] }));
    expect(view.badges).toEqual([
      ["critical", "1 of 2 refunds needs a person"],
      ["success", "Verified"],
      ["critical", "Failed"],
    ]);
  });

  it("says do not refund again, and offers no refund form, when Shopify holds a duplicate refund", async () => {
    const view = await show(json({ order: "o", doNotRetry: true, refunds: [refund("CONTRADICTED", "op-1")] }));
    expect(view.badges[0]).toEqual(["critical", "Do not refund this order again: Shopify holds a duplicate refund"]);
    expect(view.links).toEqual([["Details", "app:app/refunds/op-1"]]);
  });

  it("calls a refund still being checked Pending, the app's word, bundled from the app's own module", async () => {
    const view = await show(json({ order: "o", refunds: [refund("PENDING", "op-1"), refund("UNVERIFIABLE", "op-2")] }));
    expect(view.badges).toEqual([
      ["critical", "1 of 2 refunds needs a person"],
      ["info", "Pending"],
      ["warning", "Unverifiable"],
    ]);
  });

  it("says it could not load the refunds when the app refuses", async () => {
    const view = await show(async () => new Response("Unauthorized", { status: 401 }));
    expect(view.text).toBe("Refund Verifier could not load this order's refunds (HTTP 401).");
    expect(view.links).toEqual([]);
  });
});
