import { useEffect, useRef, useState } from "react";
import { useFetcher, useLocation } from "@remix-run/react";

/** While the value is still changing, the page's data is read again this often… */
const EVERY_MS = 3_000;
/** …for at most this long after the page's data last changed: what takes longer shows on the next visit. */
const FOR_MS = 120_000;

/**
 * A part of the page's data, read again in the background (every 3 s, while the tab is visible,
 * for at most 2 minutes) while `changing` says it is still moving: a delivery waiting to be sent,
 * a refund being checked. A fetcher of the page's own loader, not a revalidation of the page:
 * Remix's revalidate() drops the action's answer (useActionData is kept only across the reload
 * that follows the action itself), and the answer to the person's last action must stay.
 */
export function useRefreshedWhile<Data, Part>(part: Part, pick: (data: Data) => Part | undefined, changing: (part: Part) => boolean): Part {
  const fetcher = useFetcher<Data>();
  const location = useLocation();
  const [polled, setPolled] = useState<Part | null>(null);
  // New page data (an action's reload, a navigation) is newer than anything polled before it.
  useEffect(() => setPolled(null), [part]);
  const pickRef = useRef(pick);
  pickRef.current = pick;
  useEffect(() => {
    const fresh = fetcher.data === undefined ? undefined : pickRef.current(fetcher.data as Data);
    if (fresh !== undefined) setPolled(fresh);
  }, [fetcher.data]);
  const current = polled ?? part;
  const moving = changing(current);
  const load = useRef(fetcher.load);
  load.current = fetcher.load;
  const idle = useRef(true);
  idle.current = fetcher.state === "idle";
  const url = `${location.pathname}${location.search}`;
  useEffect(() => {
    if (!moving) return;
    const started = Date.now();
    const timer = setInterval(() => {
      if (Date.now() - started > FOR_MS) return clearInterval(timer);
      if (document.visibilityState === "visible" && idle.current) load.current(url);
    }, EVERY_MS);
    return () => clearInterval(timer);
  }, [moving, url, part]);
  return current;
}
