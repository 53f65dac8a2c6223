// The machine's limit for webhook intake: a bare Node HTTP server that reads the body, checks the
// HMAC and answers 200. Nothing else. Usage: node bench/bare-webhook-server.mjs PORT SECRET
import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer } from "node:http";

const [port, secret] = process.argv.slice(2);
createServer((req, res) => {
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", () => {
    const body = Buffer.concat(chunks);
    const expected = createHmac("sha256", secret).update(body).digest();
    const given = Buffer.from(String(req.headers["x-shopify-hmac-sha256"] ?? ""), "base64");
    res.statusCode = given.length === expected.length && timingSafeEqual(given, expected) ? 200 : 401;
    res.end();
  });
}).listen(Number(port), "127.0.0.1", () => process.send?.("ready"));
