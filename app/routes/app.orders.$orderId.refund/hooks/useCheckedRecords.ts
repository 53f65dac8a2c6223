import { useRefreshedWhile } from "../../../components/useRefreshedWhile";
import type { RefundFormData } from "../types";

type Records = RefundFormData["records"];

/** The records of the refunds issued here, read again while one is being checked: its verdict appears without a reload. */
export function useCheckedRecords(records: Records): Records {
  return useRefreshedWhile(
    records,
    (data: { records?: Records }) => data.records,
    (current) => current.some((r) => r.shopifyOutcome === "created" && (!r.verdict || r.verdict.status === "PENDING")),
  );
}
