import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DISCARD_LIMIT_BYTES } from "../../../app/lib/http/too-large.server";
import { startTestApp, type TestApp } from "../../support/app-server";

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ env: { VERIFIER_WORKER: "off" } });
});
afterAll(async () => {
  await app.close();
});

interface Exchange {
  /** Every byte of the request was written without an error. */
  sent: boolean;
  /** The answer's status line, as far as it was read. */
  status: string;
  /** The connection ended with the server's close, not a reset. */
  closedCleanly: boolean;
}

/**
 * A client that writes its whole request before it reads a byte, as Python's http.client and many
 * webhook relays do: it sees the server's answer only if the server let it finish sending.
 */
function sendWholeThenRead(path: string, body: Buffer, framing: "length" | "chunked"): Promise<Exchange> {
  const { hostname, port } = new URL(app.url);
  return new Promise((resolve) => {
    let answer = "";
    let reset = false;
    const socket = connect({ host: hostname, port: Number(port) });
    const settle = () => resolve({ sent, status: answer.split("\r\n")[0], closedCleanly: !reset });
    let sent = false;
    socket.on("error", () => (reset = true));
    socket.on("close", settle);
    socket.on("data", (chunk: Buffer) => (answer += chunk.toString("latin1")));
    socket.pause();
    socket.once("connect", async () => {
      const write = (data: Buffer | string) => new Promise<boolean>((done) => void socket.write(data, (error) => done(!error && !reset)));
      const length = framing === "chunked" ? "Transfer-Encoding: chunked" : `Content-Length: ${body.length}`;
      sent = await write(`POST ${path} HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/json\r\n${length}\r\n\r\n`);
      for (let at = 0; sent && at < body.length; at += 64 * 1024) {
        const part = body.subarray(at, at + 64 * 1024);
        sent = await write(framing === "chunked" ? Buffer.concat([Buffer.from(`${part.length.toString(16)}\r\n`), part, Buffer.from("\r\n")]) : part);
      }
      if (sent && framing === "chunked") sent = await write("0\r\n\r\n");
      socket.resume();
    });
  });
}

const serving = async () => (await fetch(`${app.url}/healthz`)).status === 200;

describe("a body over the limit", () => {
  const twoMiB = Buffer.alloc(2 * 1024 * 1024, "x");
  const paths = ["/webhooks/refunds/create", "/webhooks/app/uninstalled", "/auth/login"];

  it.each(paths.flatMap((path) => (["length", "chunked"] as const).map((framing) => [path, framing] as const)))(
    "%s (%s) is answered 413 to a client that sends it whole before reading",
    async (path, framing) => {
      expect(await sendWholeThenRead(path, twoMiB, framing)).toEqual({ sent: true, status: "HTTP/1.1 413 Payload Too Large", closedCleanly: true });
      expect(await serving()).toBe(true);
    },
  );

  it("past what the server will read and throw away, the client is cut off and the server keeps serving", async () => {
    const exchange = await sendWholeThenRead("/webhooks/refunds/create", Buffer.alloc(DISCARD_LIMIT_BYTES * 2, "x"), "length");
    expect(exchange.sent).toBe(false);
    expect(await serving()).toBe(true);
  }, 30_000);
});
