import type { LoaderFunctionArgs } from "@remix-run/node";
import { authenticateAdmin } from "../screens/admin-auth.server";
import { csvExportResponse } from "../exports/csv-download.server";

/** GET /app/refunds.csv: the dashboard's filtered list, streamed. */
export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticateAdmin(request);
  return csvExportResponse(session.shop, new URL(request.url).searchParams, new Date());
};
