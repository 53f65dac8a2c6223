import { describe, expect, it } from "vitest";
import { scriptsAfterFirstPaint } from "../../../app/lib/http/scripts-after-paint.server";

// The end of a page as Remix 2 writes it (lazy route discovery on: no manifest import).
const REMIX_PAGE = `<html><head><link rel="stylesheet" href="/assets/polaris-x.css"/></head><body><main>#1001</main>
<link rel="modulepreload" href="/assets/entry.client-A.js"/><link rel="modulepreload" href="/assets/index-B.js"/>
<script>window.__remixContext = {"state":{}};</script><script type="module" async="">
import * as route0 from "/assets/root-C.js";
import * as route1 from "/assets/route-D.js";
window.__remixManifest = {"url":"/assets/manifest-E.js"};
window.__remixRouteModules = {"root":route0,"routes/app":route1};

import("/assets/entry.client-A.js");</script></body></html>`;

describe("a page's scripts after its first paint", () => {
  const page = scriptsAfterFirstPaint(REMIX_PAGE);

  it("leaves nothing for the browser to fetch before it paints: the preload links are inert and no module script remains", () => {
    expect(page).not.toContain('rel="modulepreload"');
    expect(page.match(/rel="x-after-first-paint"/g)).toHaveLength(2);
    expect(page).not.toContain('type="module"');
    expect(page).toContain('<link rel="stylesheet" href="/assets/polaris-x.css"/>');
    expect(page).toContain('<script>window.__remixContext = {"state":{}};</script>');
  });

  it("imports the same modules once the first contentful paint is reported (else one frame after the first), then runs Remix's own code with them", () => {
    const script = /<script>(\(function\(\)[\s\S]*?)<\/script>/.exec(page)![1];
    expect(script).toContain('Promise.all([import("/assets/root-C.js"),import("/assets/route-D.js")])');
    expect(script).toContain("var route0=m[0];var route1=m[1];");
    expect(script).toContain('window.__remixRouteModules = {"root":route0,"routes/app":route1};');
    expect(script).toContain('import("/assets/entry.client-A.js");');
    expect(script).toContain('performance.getEntriesByName("first-contentful-paint")');
    expect(script).toContain("requestAnimationFrame(function(){setTimeout(start,0)})");
    expect(script).not.toMatch(/import \* as/);
    // It is a classic script the browser can run.
    expect(() => new Function(script.replace(/import\(/g, "load("))).not.toThrow();
  });

  it("leaves a page without Remix's module script as it was", () => {
    expect(scriptsAfterFirstPaint("<html><body>Not found</body></html>")).toBe("<html><body>Not found</body></html>");
  });

  it("leaves Remix's development script as it was: a static import (its HMR runtime) has no place in a classic script", () => {
    const development = REMIX_PAGE.replace(
      '<script type="module" async="">\n',
      '<script type="module" async="">import "/@id/virtual:remix/inject-hmr-runtime";\n',
    );
    const kept = scriptsAfterFirstPaint(development);
    expect(kept).toContain('<script type="module" async="">import "/@id/virtual:remix/inject-hmr-runtime";');
    expect(kept).toContain('import * as route0 from "/assets/root-C.js";');
  });
});
