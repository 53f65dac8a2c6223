import { screenLoader } from "../screens/context.server";
import { load } from "../screens/order-block.server";

/** For the order-page block: this shop's verdicts for one order (CORS lets the admin read it). */
export const loader = screenLoader(load);
