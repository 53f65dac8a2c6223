import { useCallback, useEffect, useRef, useState } from "react";
import { useSearchParams } from "@remix-run/react";

/**
 * Filters kept in the URL, as the dashboard and the review queue both do: `update` replaces
 * some parameters and goes back to the first page, `page` moves the keyset cursor, and the search
 * box writes `q` 300 ms after the person stops typing.
 */
export function useUrlFilters(currentQuery: string) {
  const [params, setParams] = useSearchParams();
  const [query, setQuery] = useState(currentQuery);
  // The search last written to the URL. Until the loader answers, `currentQuery` is the old one: without
  // this, emptying the box and the URL together ("Clear search and filters") had the debounce below
  // write the URL again 300 ms later, from the parameters as they were, and bring the filters back.
  const written = useRef(currentQuery);

  const update = useCallback(
    (changes: Record<string, string | string[] | undefined>) => {
      if ("q" in changes) written.current = typeof changes.q === "string" ? changes.q : "";
      const next = new URLSearchParams(params);
      next.delete("after");
      next.delete("before");
      for (const [key, value] of Object.entries(changes)) {
        next.delete(key);
        for (const v of Array.isArray(value) ? value : value ? [value] : []) next.append(key, v);
      }
      setParams(next, { replace: true, preventScrollReset: true });
    },
    [params, setParams],
  );

  useEffect(() => {
    if (query === currentQuery || query === written.current) return;
    const timer = setTimeout(() => update({ q: query || undefined }), 300);
    return () => clearTimeout(timer);
  }, [query, currentQuery, update]);

  const page = (key: "after" | "before", cursor: string | null) => {
    const next = new URLSearchParams(params);
    next.delete("after");
    next.delete("before");
    if (cursor) next.set(key, cursor);
    setParams(next, { preventScrollReset: true });
  };

  return { params, setParams, update, page, query, setQuery };
}
