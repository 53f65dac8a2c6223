import { useEffect, useRef, useState } from "react";
import { useFetcher, useLocation } from "@remix-run/react";
import type { RefundFormData } from "../route";

/** While a refund issued here is being checked, its record is read again this often… */
const EVERY_MS = 3_000;
/** …for at most this long after the page last changed: a verdict that takes longer is there on the next visit. */
const FOR_MS = 120_000;

type Records = RefundFormData["records"];
const beingChecked = (records: Records) => records.some((r) => r.shopifyOutcome === "created" && (!r.verdict || r.verdict.status === "PENDING"));

/**
 * The records of the refunds issued here, read again in the background while one is being checked,
 * so its verdict appears without a reload. A fetcher, not a revalidation of the page: the answer to
 * the person's last action (the success banner, a field error) and the form's token stay as they are.
 */
export function useCheckedRecords(records: Records): Records {
  const fetcher = useFetcher<{ records: Records }>();
  const location = useLocation();
  const [polled, setPolled] = useState<Records | null>(null);
  // New page data (an action, a navigation) is newer than anything polled before it.
  useEffect(() => setPolled(null), [records]);
  useEffect(() => {
    if (fetcher.data?.records) setPolled(fetcher.data.records);
  }, [fetcher.data]);
  const current = polled ?? records;
  const watching = beingChecked(current);
  const load = useRef(fetcher.load);
  load.current = fetcher.load;
  const idle = useRef(true);
  idle.current = fetcher.state === "idle";
  const url = `${location.pathname}${location.search}`;
  useEffect(() => {
    if (!watching) return;
    const started = Date.now();
    const timer = setInterval(() => {
      if (Date.now() - started > FOR_MS) return clearInterval(timer);
      if (document.visibilityState === "visible" && idle.current) load.current(url);
    }, EVERY_MS);
    return () => clearInterval(timer);
  }, [watching, url, records]);
  return current;
}
