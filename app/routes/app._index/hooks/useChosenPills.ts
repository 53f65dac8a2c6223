import { useCallback, useState } from "react";

type Changes = Record<string, string | string[] | undefined>;

interface Pill {
  key: string;
  label: string;
  onRemove: () => void;
}

interface FilterDefinition {
  key: string;
  label: string;
  pinned?: boolean;
}

/**
 * Polaris's Filters drops the pill of a filter it was not told is applied when that filter's popover
 * closes, and never brings it back: a person who picked "On Point of Sale" and clicked away before
 * the refunds arrived saw them filtered with no pill saying so. So a choice counts as applied from
 * the click until the loader answers (`loaded`, its filters, changes). It is React state set in the
 * click itself, so it is on screen before the next key or click, where the router's own pending
 * navigation is rendered in a transition that can come later.
 */
export function useChosenPills(loaded: unknown, update: (changes: Changes) => void) {
  const [chosen, setChosen] = useState({ loaded, keys: new Set<string>() });
  const current = chosen.loaded === loaded ? chosen.keys : new Set<string>();

  const choose = useCallback(
    (changes: Changes) => {
      setChosen((before) => {
        const keys = new Set(before.loaded === loaded ? before.keys : []);
        for (const [key, value] of Object.entries(changes)) {
          if (value === undefined || value.length === 0) keys.delete(key);
          else keys.add(key);
        }
        return { loaded, keys };
      });
      update(changes);
    },
    [loaded, update],
  );

  /** The applied filters' pills, and one for each filter just chosen that the bar does not pin (it is written under its own key). */
  const pillsOf = (applied: Pill[], filters: FilterDefinition[]): Pill[] => [
    ...applied,
    ...filters
      .filter(({ key, pinned }) => !pinned && current.has(key) && !applied.some((pill) => pill.key === key))
      .map(({ key, label }) => ({ key, label, onRemove: () => choose({ [key]: undefined }) })),
  ];

  return { choose, pillsOf };
}
