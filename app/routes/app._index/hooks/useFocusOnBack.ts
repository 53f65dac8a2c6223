import { useEffect } from "react";
import { useNavigationType } from "@remix-run/react";

const KEY = "refund-verifier:last-row";

/** Remembers the row a person opened, so that "back" puts the focus on it again, not on the page's start. */
export function rememberRow(id: string): void {
  try {
    sessionStorage.setItem(KEY, id);
  } catch {
    // Storage refused (a private window's quota): back still works, the focus starts at the top.
  }
}

/** On a return by the browser's back (a POP), focuses the link of the row last opened, if it is on the page. */
export function useFocusOnBack(): void {
  const navigationType = useNavigationType();
  useEffect(() => {
    if (navigationType !== "POP") return;
    let id: string | null = null;
    try {
      id = sessionStorage.getItem(KEY);
    } catch {
      return;
    }
    const link = id ? document.querySelector<HTMLAnchorElement>(`[data-refund-link="${CSS.escape(id)}"] a`) : null;
    link?.focus();
  }, [navigationType]);
}
