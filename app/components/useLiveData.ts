import { useEffect, useRef } from "react";
import { useNavigation, useRevalidator } from "@remix-run/react";

/** The dashboard reloads its data this often while the tab is visible. */
const REFRESH_MS = 15_000;

/** Reloads the loader's data every `everyMs` (REFRESH_MS by default) while the tab is visible, and at once when it becomes visible again. */
export function useLiveData(everyMs = REFRESH_MS) {
  const revalidator = useRevalidator();
  const navigation = useNavigation();
  const busy = useRef(false);
  busy.current = revalidator.state !== "idle" || navigation.state !== "idle";
  const revalidate = useRef(revalidator.revalidate);
  revalidate.current = revalidator.revalidate;
  useEffect(() => {
    const tick = () => {
      if (document.visibilityState === "visible" && !busy.current) revalidate.current();
    };
    const timer = setInterval(tick, everyMs);
    const onVisibility = () => {
      if (document.visibilityState === "visible") tick();
    };
    document.addEventListener("visibilitychange", onVisibility);
    return () => {
      clearInterval(timer);
      document.removeEventListener("visibilitychange", onVisibility);
    };
  }, [everyMs]);
}
