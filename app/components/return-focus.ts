import { useEffect } from "react";

const KEY = "refund-verifier:left-refund";
/** A return to the list counts within this long of leaving a refund's page; a later visit (a reload, the admin's menu) starts at the top. */
const RETURN_MS = 10_000;

function storage(): Storage | null {
  try {
    return sessionStorage;
  } catch {
    // Storage refused (a private window's policy): the focus starts at the top.
    return null;
  }
}

/** On a refund's evidence page: when the person leaves it (its Back, the browser's back), the list can put the focus on its row. */
export function useMarkLeavingRefund(id: string): void {
  useEffect(() => () => storage()?.setItem(KEY, JSON.stringify({ id, at: Date.now() })), [id]);
}

/** On the list: just back from a refund's page, focus the link of its row when it is on the page. Any other arrival focuses nothing. */
export function useFocusReturnedRow(): void {
  useEffect(() => {
    const store = storage();
    const text = store?.getItem(KEY);
    store?.removeItem(KEY);
    let left: { id?: unknown; at?: unknown } = {};
    try {
      left = text ? (JSON.parse(text) as typeof left) : {};
    } catch {
      return;
    }
    if (typeof left.id !== "string" || typeof left.at !== "number" || Date.now() - left.at > RETURN_MS) return;
    document.querySelector<HTMLAnchorElement>(`[data-refund-link="${CSS.escape(left.id)}"] a`)?.focus();
  }, []);
}
