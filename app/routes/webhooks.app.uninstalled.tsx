import { postOnly } from "../webhooks/authenticate.server";

export const loader = postOnly;
export { uninstallAction as action } from "../privacy/uninstall.server";
