import { useEffect, useRef, useState } from "react";
import { useFetcher, useLocation } from "@remix-run/react";
import type { AlertsLoaderData } from "../route";

/** While a message waits to be sent, the log is read again this often… */
const EVERY_MS = 3_000;
/** …for at most this long after the page's data last changed: one that waits longer (a retry hours away) shows on the next visit. */
const FOR_MS = 120_000;

type Deliveries = AlertsLoaderData["deliveries"];
const WAITING = new Set(["pending", "sending"]);
const anyWaiting = (deliveries: Deliveries) => deliveries.some((delivery) => WAITING.has(delivery.status));

/**
 * The delivery log, read again in the background while a message in it waits to be sent, so
 * "Waiting to send" turns "Delivered" without a reload. A fetcher, not a revalidation of the page:
 * Remix's revalidate() drops the action's answer (useActionData is kept only across the reload that
 * follows the action itself), and the answer beside the button pressed must stay.
 */
export function useWaitingDeliveries(deliveries: Deliveries): Deliveries {
  const fetcher = useFetcher<AlertsLoaderData>();
  const location = useLocation();
  const [polled, setPolled] = useState<Deliveries | null>(null);
  // New page data (an action's reload, a navigation) is newer than anything polled before it.
  useEffect(() => setPolled(null), [deliveries]);
  useEffect(() => {
    if (fetcher.data?.deliveries) setPolled(fetcher.data.deliveries);
  }, [fetcher.data]);
  const current = polled ?? deliveries;
  const waiting = anyWaiting(current);
  const load = useRef(fetcher.load);
  load.current = fetcher.load;
  const idle = useRef(true);
  idle.current = fetcher.state === "idle";
  const url = `${location.pathname}${location.search}`;
  useEffect(() => {
    if (!waiting) return;
    const started = Date.now();
    const timer = setInterval(() => {
      if (Date.now() - started > FOR_MS) return clearInterval(timer);
      if (document.visibilityState === "visible" && idle.current) load.current(url);
    }, EVERY_MS);
    return () => clearInterval(timer);
  }, [waiting, url, deliveries]);
  return current;
}
