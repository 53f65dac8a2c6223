import type { ActionFunctionArgs } from "@remix-run/node";
import { authenticateWebhook, badPayload, postOnly } from "../webhooks/authenticate.server";
import { parseRefundWebhook, RefundPayloadError } from "../webhooks/refund-payload";

export const loader = postOnly;

export const action = async ({ request }: ActionFunctionArgs) => {
  const { rawBody } = await authenticateWebhook(request);
  try {
    parseRefundWebhook(rawBody);
  } catch (error) {
    if (error instanceof RefundPayloadError) return badPayload(error.message);
    throw error;
  }
  return new Response();
};
