import { authenticate } from "../shopify.server";

export type AuthenticatedWebhook = Awaited<ReturnType<typeof authenticate.webhook>> & { rawBody: string };

/**
 * authenticate.webhook answers 405 / 401 / 400 itself, but a correctly signed body that is not
 * JSON makes it throw a SyntaxError (a 500). Answer that with 400 too, and keep the raw body:
 * Shopify's numeric ids exceed 2^53 and JSON.parse loses their digits.
 */
export async function authenticateWebhook(request: Request): Promise<AuthenticatedWebhook> {
  const rawBody = request.method === "POST" ? await request.clone().text() : "";
  try {
    return { ...(await authenticate.webhook(request)), rawBody };
  } catch (error) {
    if (error instanceof Response) throw error;
    if (error instanceof SyntaxError) throw new Response("Webhook body is not JSON", { status: 400 });
    throw error;
  }
}

export function badPayload(message: string): Response {
  return new Response(message, { status: 422 });
}

/** Webhook routes take POST only; without a loader Remix would answer a GET with 400, not 405. */
export function postOnly(): Response {
  throw new Response("Method Not Allowed", { status: 405, headers: { Allow: "POST" } });
}
