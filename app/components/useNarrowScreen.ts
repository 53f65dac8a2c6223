import { useCallback, useSyncExternalStore } from "react";
import { useRouteLoaderData } from "@remix-run/react";

/** Polaris's smDown: narrower than its md breakpoint (48em, 768 px). */
const NARROW = "(max-width: 47.9975em)";

/**
 * Whether the screen is a phone's (Polaris's smDown), from the first render on. The server renders
 * what the request's browser most likely is (the app layout's `narrowLikely`, from its user agent),
 * hydration keeps it, and the screen's own width decides from then on: a phone gets its condensed
 * list in the page the server sent. Polaris's useBreakpoints renders the wide layout on the server
 * and replaces it after hydration, in one long task, on every phone.
 */
export function useNarrowScreen(): boolean {
  const narrowLikely = useRouteLoaderData<{ narrowLikely?: boolean }>("routes/app")?.narrowLikely ?? false;
  const subscribe = useCallback((onChange: () => void) => {
    const query = window.matchMedia(NARROW);
    query.addEventListener("change", onChange);
    return () => query.removeEventListener("change", onChange);
  }, []);
  return useSyncExternalStore(
    subscribe,
    () => window.matchMedia(NARROW).matches,
    () => narrowLikely,
  );
}
