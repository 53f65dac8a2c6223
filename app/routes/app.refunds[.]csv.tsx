import { screenLoader } from "../screens/context.server";
import { load } from "../screens/refunds-csv.server";

/** GET /app/refunds.csv: the dashboard's filtered list, streamed. */
export const loader = screenLoader(load);
