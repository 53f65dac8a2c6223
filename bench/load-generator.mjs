// A separate process that offers signed refunds/create deliveries to one URL with autocannon,
// bounded in time, loopback only, each delivery unique (new webhook id, new refund id).
// Usage: node bench/load-generator.mjs '{"url":…,"secret":…,"shop":…,"seconds":…,"connections":…,"rate":…,"ackFile":…}'
// With ackFile, the webhook ids answered 2xx are written there, one a line: what the app acknowledged.
import { writeFileSync } from "node:fs";
import autocannon from "autocannon";
import { createHmac, randomUUID } from "node:crypto";

const options = JSON.parse(process.argv[2]);
if (!/^http:\/\/(127\.0\.0\.1|localhost)[:/]/.test(options.url)) throw new Error("loopback only");
let n = 0;
const base = 7_000_000_000_000_000_000n + BigInt(process.pid) * 1_000_000n;
const acknowledged = [];
function request(req, context) {
  const id = base + BigInt(++n);
  const order = base + 500_000n + BigInt(n);
  const now = new Date().toISOString().replace(/\.\d{3}Z$/, "+00:00");
  const webhookId = randomUUID();
  if (context) context.webhookId = webhookId;
  const body = `{"id":${id},"order_id":${order},"created_at":"${now}","note":null,"admin_graphql_api_id":"gid://shopify/Refund/${id}","refund_line_items":[],"transactions":[{"id":${id + 1n},"order_id":${order},"kind":"refund","gateway":"shopify_payments","status":"success","amount":"25.00","currency":"USD","admin_graphql_api_id":"gid://shopify/OrderTransaction/${id + 1n}"}]}`;
  return {
    ...req,
    method: "POST",
    body,
    headers: {
      "content-type": "application/json",
      "x-shopify-topic": "refunds/create",
      "x-shopify-hmac-sha256": createHmac("sha256", options.secret).update(body).digest("base64"),
      "x-shopify-shop-domain": options.shop,
      "x-shopify-api-version": "2025-07",
      "x-shopify-webhook-id": webhookId,
      "x-shopify-event-id": randomUUID(),
      "x-shopify-triggered-at": new Date().toISOString(),
    },
  };
}
const result = await autocannon({
  url: options.url,
  connections: options.connections,
  duration: options.seconds,
  ...(options.rate ? { overallRate: options.rate } : {}),
  requests: [
    {
      setupRequest: request,
      ...(options.ackFile
        ? {
            onResponse: (status, _body, context) => {
              if (status >= 200 && status < 300 && context?.webhookId) acknowledged.push(context.webhookId);
            },
          }
        : {}),
    },
  ],
});
if (options.ackFile) writeFileSync(options.ackFile, acknowledged.join("\n"));
process.stdout.write(
  JSON.stringify({
    requests: result.requests.total,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
  }),
);
