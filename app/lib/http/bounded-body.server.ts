import type { IncomingMessage } from "node:http";

/**
 * A request's body, read whole only while it stays within `limit` bytes: refused by its
 * Content-Length first, then as it streams, and never buffered past the limit. The one way the app
 * reads a body (decision 036): Node's request before Remix (server/listener.mjs, refunds/create's
 * own handler) and a Web request inside it (a webhook route, Flow's callback). Null past the limit.
 */
export function readNodeBody(req: IncomingMessage, limit: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    if (declaredOver(req.headers["content-length"], limit)) return resolve(null);
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size <= limit) return void chunks.push(chunk);
      // Paused, not destroyed: the 413 goes out, and the rest is drained (lib/http/too-large.server.ts).
      req.off("data", onData);
      req.pause();
      resolve(null);
    };
    req.on("data", onData);
    req.once("end", () => resolve(Buffer.concat(chunks)));
    req.once("error", reject);
  });
}

/** The same for a Web request: the stream is cancelled past the limit (its connection closes after the answer). */
export async function readRequestBody(request: Request, limit: number): Promise<Buffer | null> {
  if (declaredOver(request.headers.get("content-length"), limit)) return null;
  if (!request.body) return Buffer.alloc(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return Buffer.concat(chunks);
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
}

function declaredOver(contentLength: string | null | undefined, limit: number): boolean {
  const declared = Number(contentLength);
  return contentLength !== null && contentLength !== undefined && Number.isFinite(declared) && declared > limit;
}
