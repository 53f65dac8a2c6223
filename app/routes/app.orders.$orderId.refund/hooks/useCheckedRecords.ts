import { useMemo } from "react";
import { useLocation } from "@remix-run/react";
import { useRefreshedWhile } from "../../../components/useRefreshedWhile";
import type { Attempts, RefundFormData } from "../types";

type Records = RefundFormData["records"];

const newer = (read: Attempts, shown: Attempts) => read.readAt >= shown.readAt;

/**
 * Whether a record may still move within minutes: a refund Shopify accepted that is still being
 * checked (no verdict yet, or pending) or still settling at its gateway, and a call whose answer
 * is not known yet (the worker asks Shopify again with its key). A request waiting for approval
 * waits for a person: nothing is read for it.
 */
const moving = (r: Records[number]) =>
  (r.shopifyOutcome === "created" && (!r.verdict || r.verdict.status === "PENDING" || r.status === "created")) ||
  r.shopifyOutcome === "unknown" ||
  r.shopifyOutcome === "none";

/**
 * The side card's records: the newest of the page's data and the action's answer (which comes
 * first: the page's reload after it reads the order from Shopify again), then read again in the
 * background from the attempts route (the database alone) while one of them may still move, so a
 * verdict appears without a reload. ISO instants of one server compare as strings.
 */
export function useCheckedRecords(loaded: Records, loadedAt: string, answered: Attempts | undefined): Records {
  const location = useLocation();
  const shown = useMemo(() => {
    const page = { records: loaded, readAt: loadedAt };
    return answered && newer(answered, page) ? answered : page;
  }, [answered, loaded, loadedAt]);
  return useRefreshedWhile(
    shown,
    (data: Attempts) => data,
    (current) => current.records.some(moving),
    { from: `${location.pathname}/attempts${location.search}`, newer },
  ).records;
}
