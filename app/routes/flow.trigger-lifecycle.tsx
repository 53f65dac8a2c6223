import type { ActionFunctionArgs } from "@remix-run/node";
import db from "../db.server";
import { handleTriggerLifecycle } from "../alerts/flow-lifecycle.server";
import { postOnly } from "../webhooks/authenticate.server";

export const loader = postOnly;

export const action = ({ request }: ActionFunctionArgs) => handleTriggerLifecycle(db, request);
