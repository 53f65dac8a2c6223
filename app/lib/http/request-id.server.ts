import { randomUUID } from "node:crypto";

/** What an X-Request-Id may be: a proxy's id, or ours. */
const REQUEST_ID = /^[\w.-]{1,64}$/;

const assigned = new WeakMap<Request, string>();

/**
 * The request's id: the one it arrived with (a proxy's X-Request-Id, or the one server/listener.mjs
 * gave it before Remix), so that a loader's log lines, the answer's X-Request-Id and the error page's
 * reference are one id whatever Request object Remix hands each of them (a single fetch copies the
 * request). A request without one (Vite's dev server) is given one, kept for that object.
 */
export function requestIdOf(request: Request): string {
  const sent = request.headers.get("x-request-id");
  if (sent && REQUEST_ID.test(sent)) return sent;
  let id = assigned.get(request);
  if (!id) assigned.set(request, (id = randomUUID()));
  return id;
}
