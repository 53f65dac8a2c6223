import { demoInboxPages, type DemoInboxes } from "./demo-inboxes";
import { mintSessionToken } from "./session-token";
import type { AppCredentials } from "./server";

/**
 * A stand-in for the parts of Shopify admin an embedded app needs, for the demo: a page that
 * frames the app as admin does, a session-token endpoint for its own simulated shops, and a
 * stand-in App Bridge script (the real one loads from Shopify's CDN and talks to the real admin).
 * The app verifies these tokens exactly as it verifies Shopify's.
 */
export function adminSurface(app: AppCredentials, appUrl: () => string, shops: () => string[], inboxes?: DemoInboxes) {
  const html = (body: string) => new Response(body, { headers: { "Content-Type": "text/html; charset=utf-8" } });
  const inboxPages = inboxes && demoInboxPages(inboxes);
  return async (request: Request): Promise<Response | undefined> => {
    const url = new URL(request.url);
    const inbox = inboxPages?.(url);
    if (inbox) return inbox;
    const storePage = /^\/store\/([a-z0-9-]+)\/apps\/refund-verifier(\/.*)?$/.exec(url.pathname);
    if (storePage) {
      const shop = `${storePage[1]}.myshopify.com`;
      if (!shops().includes(shop)) return new Response("No such shop", { status: 404 });
      const token = mintSessionToken({ shop, apiKey: app.apiKey, secret: app.secret });
      const host = Buffer.from(`admin.shopify.com/store/${storePage[1]}`).toString("base64url");
      const path = storePage[2] && storePage[2] !== "/" ? `/app${storePage[2]}` : "/app";
      const src = `${appUrl()}${path}?embedded=1&shop=${shop}&host=${host}&id_token=${token}`;
      return html(adminPage(shop, src));
    }
    if (url.pathname === "/demo/session-token") {
      const shop = url.searchParams.get("shop") ?? "";
      const headers = { "Content-Type": "application/json", "Access-Control-Allow-Origin": "*" };
      if (!shops().includes(shop)) return new Response(JSON.stringify({ error: "unknown shop" }), { status: 404, headers });
      return new Response(JSON.stringify({ token: mintSessionToken({ shop, apiKey: app.apiKey, secret: app.secret }) }), { headers });
    }
    if (url.pathname === "/demo/app-bridge.js") {
      return new Response(APP_BRIDGE_STAND_IN, { headers: { "Content-Type": "text/javascript", "Access-Control-Allow-Origin": "*" } });
    }
    return undefined;
  };
}

function adminPage(shop: string, src: string): string {
  const name = shop.replace(".myshopify.com", "");
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Refund Verifier · ${name} · Shopify (simulated)</title>
<style>
  body{margin:0;font-family:Inter,-apple-system,BlinkMacSystemFont,"Segoe UI",Roboto,sans-serif;background:#ebebeb;height:100vh;display:grid;grid-template-rows:56px 1fr;grid-template-columns:240px 1fr}
  header{grid-column:1/3;background:#1a1a1a;color:#e3e3e3;display:flex;align-items:center;gap:12px;padding:0 16px;font-size:14px}
  header b{color:#fff} header .note{margin-left:auto;color:#b5b5b5;font-size:12px}
  nav{padding:12px 8px;font-size:13px;color:#303030} nav a{display:block;padding:6px 10px;border-radius:8px;color:#303030;text-decoration:none}
  nav .app{margin-top:16px;font-weight:600} nav a.current{background:#fafafa;font-weight:600}
  main{padding:0 12px 12px 0} iframe{width:100%;height:100%;border:0;border-radius:12px;background:#f1f1f1;box-shadow:0 1px 0 rgba(0,0,0,.07)}
  #menu-button{display:none;background:none;border:0;color:#fff;font:inherit;font-size:14px;padding:8px 10px;border-radius:8px;cursor:pointer}
  #menu-button:focus-visible{outline:2px solid #fff}
  /* Like Shopify's mobile admin: below 768 px the sidebar hides behind a menu button and the app gets the whole width. */
  @media (max-width:767.98px){
    body{grid-template-columns:1fr}
    header{grid-column:1}
    header .note{display:none}
    #menu-button{display:inline-block}
    nav{display:none;position:fixed;top:56px;left:0;bottom:0;width:min(280px,85vw);overflow-y:auto;background:#ebebeb;box-shadow:4px 0 16px rgba(0,0,0,.2);z-index:1}
    body.menu-open nav{display:block}
    main{grid-column:1;padding:0}
    iframe{border-radius:0}
  }
</style></head><body>
<header><button id="menu-button" type="button" aria-expanded="false" aria-controls="admin-nav">☰ Menu</button><b>shopify</b><span>${name}</span><span class="note">Simulated Shopify admin for the Refund Verifier demo: no Shopify account, no internet</span></header>
<nav id="admin-nav" aria-label="Shopify admin"><a href="#">Home</a><a href="#">Orders</a><a href="#">Products</a><a href="#">Customers</a>
<div class="app">Apps</div><a class="current" id="app-home" href="/store/${name}/apps/refund-verifier">Refund Verifier</a><div id="app-nav"></div>
<div class="app">Demo inboxes</div><a href="/demo/mail" target="_blank">Mailbox</a><a href="/demo/slack" target="_blank">Slack channel</a><a href="/demo/flow" target="_blank">Flow runs</a></nav>
<main><iframe id="app-frame" title="Refund Verifier" src="${src.replace(/"/g, "&quot;")}"></iframe></main>
<script>
  // The phone's menu: open and shut by its button, shut by Escape (focus back on the button) and by choosing a link.
  const menuButton = document.getElementById("menu-button");
  const setMenu = (open) => { document.body.classList.toggle("menu-open", open); menuButton.setAttribute("aria-expanded", String(open)); };
  menuButton.onclick = () => setMenu(!document.body.classList.contains("menu-open"));
  addEventListener("keydown", (event) => { if (event.key === "Escape" && document.body.classList.contains("menu-open")) { setMenu(false); menuButton.focus(); } });
  document.getElementById("admin-nav").addEventListener("click", (event) => { if (event.target.closest("a")) setMenu(false); });
  // The stand-in App Bridge posts the app's NavMenu links here, as the real one fills admin's sidebar.
  addEventListener("message", (event) => {
    if (!event.data || event.data.type !== "rv-nav") return;
    const nav = document.getElementById("app-nav"); nav.textContent = "";
    for (const link of event.data.links.filter((l) => !l.home)) {
      const a = document.createElement("a"); a.href = "#"; a.textContent = link.label; a.style.paddingLeft = "22px";
      a.onclick = (e) => { e.preventDefault(); document.getElementById("app-frame").contentWindow.postMessage({ type: "rv-navigate", href: link.href }, "*"); };
      nav.appendChild(a);
    }
  });
</script></body></html>`;
}

const APP_BRIDGE_STAND_IN = `(function () {
  var script = document.currentScript;
  var admin = new URL(script.src).origin;
  var params = new URLSearchParams(location.search);
  var shop = params.get("shop") || sessionStorage.getItem("rv-demo-shop");
  if (shop) sessionStorage.setItem("rv-demo-shop", shop);
  function idToken() {
    return fetch(admin + "/demo/session-token?shop=" + encodeURIComponent(shop)).then(function (r) { return r.json(); }).then(function (b) { return b.token; });
  }
  // Like App Bridge: every same-origin fetch carries a fresh session token.
  var realFetch = window.fetch.bind(window);
  window.fetch = function (input, init) {
    var url = new URL(typeof input === "string" || input instanceof URL ? String(input) : input.url, location.href);
    if (url.origin !== location.origin) return realFetch(input, init);
    return idToken().then(function (token) {
      var headers = new Headers((init && init.headers) || (input instanceof Request ? input.headers : undefined));
      headers.set("Authorization", "Bearer " + token);
      return realFetch(input, Object.assign({}, init, { headers: headers }));
    });
  };
  // The bounce page (/auth/session-token) asks App Bridge for a token and reloads with it.
  var reload = params.get("shopify-reload");
  if (reload) {
    idToken().then(function (token) { var next = new URL(reload, location.href); next.searchParams.set("id_token", token); location.replace(next.toString()); });
  }
  // scopes.request: the demo merchant declines, as App Bridge's Scopes API answers when the merchant
  // closes its permission modal ({ result: "granted-all" | "declined-all", detail }; no detail here:
  // the demo's scopes are the session's, which the stand-in does not know). Nothing is granted.
  var scopes = { request: function () { return Promise.resolve({ result: "declined-all" }); } };
  window.shopify = { idToken: idToken, config: { apiKey: script.dataset.apiKey, shop: shop }, loading: function () {}, toast: { show: function (m) { console.log(m); } }, scopes: scopes };
  var lastNav = "";
  function postNav() {
    var menu = document.querySelector("ui-nav-menu");
    if (!menu || window.parent === window) return;
    var links = Array.prototype.map.call(menu.querySelectorAll("a"), function (a) { return { label: a.textContent, href: a.getAttribute("href"), home: a.getAttribute("rel") === "home" }; });
    if (JSON.stringify(links) === lastNav) return;
    lastNav = JSON.stringify(links);
    window.parent.postMessage({ type: "rv-nav", links: links }, "*");
  }
  addEventListener("message", function (event) {
    if (event.data && event.data.type === "rv-navigate") {
      var a = document.createElement("a"); a.setAttribute("href", event.data.href);
      document.body.appendChild(a); a.dispatchEvent(new CustomEvent("shopify:navigate", { bubbles: true })); a.remove();
    }
  });
  var style = document.createElement("style"); style.textContent = "ui-nav-menu,ui-title-bar{display:none}"; document.head.appendChild(style);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", postNav); else postNav();
  new MutationObserver(postNav).observe(document.documentElement, { childList: true, subtree: true });
})();`;
