import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { authenticateAdmin } from "../screens/admin-auth.server";
import { refundRecordJson } from "../refunds/form.server";

/** Read-only: a loader and no action, so anything but GET is refused (405). */
export const loader = async ({ request, params }: LoaderFunctionArgs) => {
  const { session, cors } = await authenticateAdmin(request);
  return cors(json(await refundRecordJson(session.shop, params.id ?? "")));
};
