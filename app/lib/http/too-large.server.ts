import type { IncomingMessage, ServerResponse } from "node:http";

/**
 * How much of a refused body is read and thrown away, and for how long, before the connection is
 * cut. Closing a socket with unread data makes the kernel answer with a reset, and a client that
 * sends its whole request before it reads (Python's http.client, many webhook relays) then sees
 * "connection reset" instead of the 413 already sent: the lingering close web servers do
 * (nginx's lingering_close). Past either bound the client is cut off, reset or not.
 */
export const DISCARD_LIMIT_BYTES = 16 * 1024 * 1024;
export const DISCARD_LIMIT_MS = 5_000;

/**
 * Answers 413 with `text`, then reads the rest of the body into nothing (never buffered) and
 * closes the connection once the client has sent it, or at DISCARD_LIMIT_BYTES or
 * DISCARD_LIMIT_MS. The answer is complete at once (its Content-Length is sent); only its end is
 * held back, because Node's server closes the socket the moment a `Connection: close` answer ends.
 */
export function refuseTooLarge(req: IncomingMessage, res: ServerResponse, text: string): void {
  res.writeHead(413, { "Content-Type": "text/plain; charset=utf-8", "Content-Length": String(Buffer.byteLength(text)), Connection: "close" });
  res.write(text);
  let discarded = 0;
  const finish = () => {
    clearTimeout(timer);
    if (!res.writableEnded) res.end();
  };
  const cutOff = () => {
    finish();
    req.socket.destroy();
  };
  const timer = setTimeout(cutOff, DISCARD_LIMIT_MS);
  timer.unref();
  req.removeAllListeners("data");
  req.on("data", (chunk: Buffer) => {
    discarded += chunk.byteLength;
    if (discarded > DISCARD_LIMIT_BYTES) cutOff();
  });
  req.once("end", finish);
  req.once("close", finish);
  req.once("error", cutOff);
  req.resume();
}
