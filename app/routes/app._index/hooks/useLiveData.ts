import { useEffect, useRef } from "react";
import { useNavigation, useRevalidator } from "@remix-run/react";

/** The dashboard reloads its data this often while the tab is visible. */
const REFRESH_MS = 15_000;

/** Reloads the loader's data every REFRESH_MS while the tab is visible, and at once when it becomes visible again. */
export function useLiveData() {
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
    const timer = setInterval(tick, REFRESH_MS);
    const onVisibility = () => {
      if (document.visibilityState === "visible") tick();
    };
    document.addEventListener("visibilitychange", onVisibility);
    return () => {
      clearInterval(timer);
      document.removeEventListener("visibilitychange", onVisibility);
    };
  }, []);
}
