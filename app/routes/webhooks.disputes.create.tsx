import type { ActionFunctionArgs } from "@remix-run/node";
import { receiveDisputeDelivery } from "../exposure/dispute-delivery.server";
import { postOnly } from "../webhooks/authenticate.server";

export const loader = postOnly;

/** disputes/create: the order's refunds are judged again for money at risk twice (decision 028). */
export const action = ({ request }: ActionFunctionArgs) => receiveDisputeDelivery(request, "DISPUTES_CREATE");
