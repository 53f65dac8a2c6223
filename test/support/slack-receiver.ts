import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export interface SlackReceiver {
  /** SLACK_WEBHOOK_ORIGIN for the app: it accepts webhook URLs under {origin}/services/. */
  origin: string;
  /** A webhook URL as Slack hands them out. */
  webhookUrl: string;
  messages: { path: string; body: { text?: string; blocks?: unknown[] } }[];
  /** The next `times` posts are answered with this status and body, as Slack does on errors. */
  answerWith(status: number, body: string, times?: number): void;
  close(): Promise<void>;
}

/** Stands in for Slack's incoming webhooks on loopback: keeps every message it accepts, answers "ok". */
export async function startSlackReceiver(): Promise<SlackReceiver> {
  const messages: SlackReceiver["messages"] = [];
  const scripted: { status: number; body: string }[] = [];
  const server = createServer((req, res) => {
    let text = "";
    req.on("data", (chunk) => (text += chunk));
    req.on("end", () => {
      const next = scripted.shift();
      if (next) return void res.writeHead(next.status, { "Content-Type": "text/plain" }).end(next.body);
      if (req.method !== "POST" || !req.url?.startsWith("/slack/services/")) return void res.writeHead(404).end("no_service");
      try {
        messages.push({ path: req.url, body: JSON.parse(text) });
      } catch {
        return void res.writeHead(400).end("invalid_payload");
      }
      res.writeHead(200, { "Content-Type": "text/plain" }).end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}/slack`;
  return {
    origin,
    webhookUrl: `${origin}/services/T0DEMO/B0DEMO/abcdefghijklmnopqrstuvwx`,
    messages,
    answerWith: (status, body, times = 1) => scripted.push(...Array.from({ length: times }, () => ({ status, body }))),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
