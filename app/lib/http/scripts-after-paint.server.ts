import { Transform } from "node:stream";

const ROUTE_IMPORT = /import \* as (route\d+) from ("[^"]+");\n?/g;

/**
 * A page's scripts start downloading once the server's page is painted, not beside its
 * stylesheet. Remix puts a `modulepreload` link for every module and a module script that imports
 * them at the end of the page; the browser starts all of them at once, and on a phone's slow
 * network the 190 KiB of script shared the line with the stylesheet the first paint waits for.
 * The links are made inert (a rel no browser knows: React leaves an attribute the server set as it
 * was when it hydrates) and the module script becomes a classic one that imports the same modules
 * once the first contentful paint is on the screen.
 */
export function scriptsAfterFirstPaint(html: string): string {
  return html
    .replace(/<link rel="modulepreload"/g, '<link rel="x-after-first-paint"')
    .replace(/<script type="module" async="">([\s\S]*?)<\/script>/, (whole, code: string) => {
      const routes = [...code.matchAll(ROUTE_IMPORT)].map(([, name, url]) => ({ name, url }));
      if (!routes.length) return whole;
      const rest = code.replace(ROUTE_IMPORT, "");
      // In development Remix imports its HMR runtime (and the manifest) before the routes; a classic
      // script cannot hold a static import, and that order matters: the page is left as Remix wrote it.
      if (/^\s*import\s*["'{*\w]/m.test(rest)) return whole;
      return `<script>(function(){var started=false;function start(){if(started)return;started=true;Promise.all([${routes.map((r) => `import(${r.url})`).join(",")}]).then(function(m){${routes
        .map((r, i) => `var ${r.name}=m[${i}];`)
        .join("")}\n${rest}\n})}${AFTER_FIRST_CONTENTFUL_PAINT}})()</script>`;
    });
}

/**
 * When `start` runs: once the browser reports the first contentful paint, not merely the first
 * frame. Text waits for the Inter font (up to ~100 ms, `font-display: optional`), so the first
 * frame can come and go with nothing painted; scripts started then shared the phone's line with
 * the paint after all (Lighthouse counted them into FCP and LCP). A browser without paint timing
 * starts one frame after the first; a hidden tab, which paints nothing, at once; and a page with
 * nothing to paint after 3 s.
 */
const AFTER_FIRST_CONTENTFUL_PAINT =
  "function afterFrame(){requestAnimationFrame(function(){setTimeout(start,0)})}" +
  'if(document.visibilityState!=="visible")return start();' +
  'document.addEventListener("visibilitychange",start,{once:true});' +
  "setTimeout(start,3000);" +
  'try{if(performance.getEntriesByName("first-contentful-paint").length)return afterFrame();' +
  'var seen=new PerformanceObserver(function(list){if(list.getEntriesByName("first-contentful-paint").length){seen.disconnect();setTimeout(start,0)}});' +
  'seen.observe({type:"paint",buffered:true})}catch(e){afterFrame()}';

/** The page as React writes it, rewritten by scriptsAfterFirstPaint once whole (a page is tens of KB). */
export function scriptsAfterFirstPaintStream(): Transform {
  const chunks: Buffer[] = [];
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      chunks.push(chunk);
      done();
    },
    flush(done) {
      done(null, Buffer.from(scriptsAfterFirstPaint(Buffer.concat(chunks).toString("utf8")), "utf8"));
    },
  });
}
