import { screenLoader } from "../screens/context.server";
import { load } from "../screens/refund-record.server";

/** Read-only: a loader and no action, so anything but GET is refused (405). */
export const loader = screenLoader(load);
