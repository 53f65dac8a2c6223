import type { FlowTriggerCall } from "./flow";

/** What the demo's stand-ins for the outside world received: mail (SMTP), Slack posts, Flow runs. */
export interface DemoInboxes {
  mail: () => { subject?: string; to: string; date?: Date; html: string | boolean; text?: string }[];
  slack: () => { body: { text?: string; blocks?: unknown[] } }[];
  flowCalls: () => FlowTriggerCall[];
}

const escape = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

function page(title: string, body: string): Response {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(title)} · demo</title>
<style>body{font-family:Inter,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;background:#f1f1f1;color:#303030}
header{background:#1a1a1a;color:#e3e3e3;padding:14px 20px;font-size:14px}header a{color:#b5b5b5;margin-left:16px}
main{max-width:960px;margin:20px auto;padding:0 16px}article{background:#fff;border-radius:12px;padding:16px 20px;margin-bottom:14px;box-shadow:0 1px 0 rgba(0,0,0,.07)}
h1{font-size:20px}h2{font-size:15px;margin:0 0 6px}.meta{color:#616161;font-size:12px;margin-bottom:10px}pre{white-space:pre-wrap;font-size:12px;background:#f7f7f7;padding:10px;border-radius:8px}
.empty{color:#616161}</style></head><body><header><b>Demo inboxes</b> · what the app sent outside Shopify admin (simulated, on this machine)
<a href="/demo/mail">Mailbox</a><a href="/demo/slack">Slack channel</a><a href="/demo/flow">Flow runs</a></header><main><h1>${escape(title)}</h1>${body}</main></body></html>`;
  return new Response(html, { headers: { "Content-Type": "text/html; charset=utf-8" } });
}

const none = (what: string) => `<p class="empty">${what}</p>`;

/** /demo/mail, /demo/slack and /demo/flow on the simulated Shopify's origin. */
export function demoInboxPages(inboxes: DemoInboxes) {
  return (url: URL): Response | undefined => {
    if (url.pathname === "/demo/mail") {
      const mail = [...inboxes.mail()].reverse();
      return page(
        `Mailbox (${mail.length})`,
        mail
          .map(
            (m) =>
              `<article data-mail><h2>${escape(m.subject ?? "")}</h2><div class="meta">to ${escape(m.to)} · ${m.date?.toISOString() ?? ""}</div>${typeof m.html === "string" ? m.html : `<pre>${escape(m.text ?? "")}</pre>`}</article>`,
          )
          .join("") || none("No email yet. Alerts arrive here a little after a refund is found contradicted, failed or unverifiable."),
      );
    }
    if (url.pathname === "/demo/slack") {
      const posts = [...inboxes.slack()].reverse();
      return page(
        `Slack channel (${posts.length})`,
        posts
          .map((p) => `<article data-slack><h2>${escape(p.body.text ?? "")}</h2><pre>${escape(JSON.stringify(p.body.blocks, null, 2))}</pre></article>`)
          .join("") || none("No Slack message yet."),
      );
    }
    if (url.pathname === "/demo/flow") {
      const calls = [...inboxes.flowCalls()].reverse();
      return page(
        `Flow runs (${calls.length})`,
        calls
          .map(
            (c) =>
              `<article data-flow-run><h2>${escape(c.handle)} · ${escape(c.shop)}</h2><div class="meta">${c.receivedAt.toISOString()} · ${c.ranWorkflows ? "ran the shop's workflow" : "no enabled workflow"}</div><pre>${escape(JSON.stringify(c.payload, null, 2))}</pre></article>`,
          )
          .join("") || none("No trigger yet. The app calls flowTriggerReceive once per verdict that needs a person."),
      );
    }
    return undefined;
  };
}
