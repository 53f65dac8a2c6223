import type { ActionFunctionArgs } from "@remix-run/node";
import { postOnly } from "../webhooks/authenticate.server";
import { handleRefundsCreate } from "../webhooks/refunds-create.server";

export const loader = postOnly;

export const action = ({ request }: ActionFunctionArgs) => handleRefundsCreate(request);
