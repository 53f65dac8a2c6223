import { useEffect, useMemo, useState } from "react";

/**
 * A live refresh never moves the rows a person is looking at: rows already shown update in place,
 * new ones above them wait until they ask for them ("3 new refunds · Show"), new ones below are shown. Another list (a filter, a page,
 * a sort: `listKey` changes) shows everything it holds.
 */
export function useHeldRows<T extends { id: string }>(rows: T[], listKey: string) {
  const everything = () => ({ listKey, shown: new Set(rows.map((row) => row.id)) });
  const [state, setState] = useState(everything);
  const current = state.listKey === listKey ? state : everything();
  if (current !== state) setState(current);
  // A row that comes after the last one shown moves nothing: it is shown at once. The same rows are
  // the same array, so the table (memoised) is not rendered again while a person types a search.
  const visible = useMemo(() => {
    const lastShown = rows.reduce((last, row, index) => (current.shown.has(row.id) ? index : last), -1);
    return rows.filter((row, index) => current.shown.has(row.id) || index > lastShown);
  }, [rows, current]);
  // Rows shown below the last one (or into an empty list) are shown from now on: a later refresh holds what comes above them.
  const revealed = visible.filter((row) => !current.shown.has(row.id)).map((row) => row.id);
  useEffect(() => {
    if (revealed.length) setState((s) => ({ listKey: s.listKey, shown: new Set([...s.shown, ...revealed]) }));
  }, [revealed.join(",")]);
  return { visible, held: rows.length - visible.length, showAll: () => setState(everything()) };
}
