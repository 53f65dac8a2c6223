import { useEffect, useRef, useState } from "react";
import { useFetcher, useLocation } from "@remix-run/react";

/** While the value is still changing, the page's data is read again this often… */
const EVERY_MS = 3_000;
/** …for at most this long after the page's data last changed: what takes longer shows on the next visit. */
const FOR_MS = 120_000;

export interface RefreshOptions<Part> {
  /** What to read again: a light route that answers the part alone; the page's own address (its loader) when not given. */
  from?: string;
  /** Whether a part read in the background is newer than the one the page has; every answer is, when not given. */
  newer?: (read: Part, shown: Part) => boolean;
}

/**
 * A part of the page's data, read again in the background (every 3 s, while the tab is visible,
 * for at most 2 minutes) while `changing` says it is still moving: a delivery waiting to be sent,
 * a refund being checked. Nothing is read while nothing moves, nor while the tab is hidden. A
 * fetcher, not a revalidation of the page: Remix's revalidate() drops the action's answer
 * (useActionData is kept only across the reload that follows the action itself), and the answer
 * to the person's last action must stay.
 */
export function useRefreshedWhile<Data, Part>(
  part: Part,
  pick: (data: Data) => Part | undefined,
  changing: (part: Part) => boolean,
  options: RefreshOptions<Part> = {},
): Part {
  const fetcher = useFetcher<Data>();
  const location = useLocation();
  const [polled, setPolled] = useState<Part | null>(null);
  // New page data (an action's answer or reload, a navigation) is newer than anything polled before it.
  useEffect(() => setPolled(null), [part]);
  const pickRef = useRef(pick);
  pickRef.current = pick;
  const newerRef = useRef(options.newer);
  newerRef.current = options.newer;
  const partRef = useRef(part);
  partRef.current = part;
  useEffect(() => {
    const fresh = fetcher.data === undefined ? undefined : pickRef.current(fetcher.data as Data);
    // A read that left before the page's newest data came back after it: the page's data stays.
    if (fresh !== undefined && (!newerRef.current || newerRef.current(fresh, partRef.current))) setPolled(fresh);
  }, [fetcher.data]);
  const current = polled ?? part;
  const moving = changing(current);
  const load = useRef(fetcher.load);
  load.current = fetcher.load;
  const idle = useRef(true);
  idle.current = fetcher.state === "idle";
  const url = options.from ?? `${location.pathname}${location.search}`;
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
