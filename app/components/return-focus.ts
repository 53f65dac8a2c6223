import { useEffect } from "react";
import { z } from "zod";
import { readStored } from "../lib/db/stored-json";

const KEY = "refund-verifier:left-refund";
/** A return to the list counts within this long of leaving a refund's page; a later visit (a reload, the admin's menu) starts at the top. */
const RETURN_MS = 10_000;
/** What the evidence page leaves in session storage: which refund, and when. */
const leftRefund = z.object({ id: z.string(), at: z.number() });

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
    // Anything else there (another version's note, a person's edit) is no return.
    const left = readStored(leftRefund, text);
    if (!left || Date.now() - left.at > RETURN_MS) return;
    document.querySelector<HTMLAnchorElement>(`[data-refund-link="${CSS.escape(left.id)}"] a`)?.focus();
  }, []);
}
