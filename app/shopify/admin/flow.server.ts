import type { AdminResult, ShopifyGateway } from "./gateway.server";
import { FLOW_TRIGGER_RECEIVE_MUTATION, QUERY_COSTS } from "./documents";

/** Runs the shop's workflows that start with the trigger; Flow's userErrors come back as data (a refusal, not an outage). */
export async function receiveFlowTrigger(
  gateway: ShopifyGateway,
  shop: string,
  handle: string,
  payload: Record<string, unknown>,
): Promise<AdminResult<{ userErrors: { field?: string[] | null; message: string }[] }>> {
  const answer = await gateway.request(shop, FLOW_TRIGGER_RECEIVE_MUTATION, { handle, payload }, QUERY_COSTS.flowTriggerReceive);
  if (!answer.ok) return answer;
  return { ...answer, data: { userErrors: answer.data.flowTriggerReceive?.userErrors ?? [] } };
}
