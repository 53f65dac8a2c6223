import { BlockStack, ChoiceList, Filters, TextField } from "@shopify/polaris";
import type { useUrlFilters } from "../../../dashboard/use-url-filters";
import { FilterBar, problemChip, problemFilter, verdictChip, verdictFilter } from "../../../dashboard/list-controls";
import { DEFAULT_DASHBOARD_RANGE } from "../../../verdicts/filters";
import { MADE_LABELS, ORIGIN_LABELS, REVIEW_LABELS, VERDICT_LABELS } from "../../../verdicts/words";
import { MADE_IN } from "../../../verdicts/made";
import type { DashboardData } from "../types";
import { RANGE_LABELS } from "./labels";
import { useChosenPills } from "../hooks/useChosenPills";

type Update = ReturnType<typeof useUrlFilters>["update"];
type FilterValues = DashboardData["filters"];

const SORT_OPTIONS = [
  { label: "Newest first", value: "newest" },
  { label: "Oldest first", value: "oldest" },
  { label: "Largest amount", value: "amount_desc" },
  { label: "Smallest amount", value: "amount_asc" },
];

const capitalized = (words: string) => `${words.charAt(0).toUpperCase()}${words.slice(1)}`;

/** The filters in force, as removable pills. */
export function appliedFiltersOf(filters: FilterValues, update: Update) {
  const dateLabel = filters.range && filters.range !== "custom" ? RANGE_LABELS[filters.range] : `${filters.from ?? "…"} to ${filters.to ?? "…"}`;
  return [
    ...(filters.review ? [{ key: "review", label: REVIEW_LABELS[filters.review], onRemove: () => update({ review: undefined }) }] : []),
    ...verdictChip(filters.verdicts, update),
    ...problemChip(filters.classes, update),
    ...(filters.gatewayFailures ? [{ key: "gateway", label: "Gateway failures", onRemove: () => update({ gateway: undefined }) }] : []),
    ...(filters.moneyLate
      ? [{ key: "money", label: capitalized(filters.moneyLate.words), onRemove: () => update({ money: undefined, money_days: undefined }) }]
      : []),
    ...(filters.atRiskTwice ? [{ key: "risk", label: "Money at risk twice", onRemove: () => update({ risk: undefined }) }] : []),
    ...(filters.made.length
      ? [{ key: "made", label: `Made: ${filters.made.map((m) => MADE_LABELS[m]).join(", ")}`, onRemove: () => update({ made: undefined }) }]
      : []),
    // How the app learned of them: no filter of the bar, but a link's (the history's "Needs review") keeps its pill.
    ...(filters.origins.length
      ? [{ key: "origin", label: filters.origins.map((o) => ORIGIN_LABELS[o]).join(", "), onRemove: () => update({ origin: undefined }) }]
      : []),
    // The default period (30 days) is not a filter to remove: it is where removing one leads.
    ...(filters.range && filters.range !== DEFAULT_DASHBOARD_RANGE
      ? [{ key: "dates", label: `Dates: ${dateLabel}`, onRemove: () => update({ range: undefined, from: undefined, to: undefined }) }]
      : []),
  ];
}

/** Back to every refund of the default period: the search box emptied and every filter removed. */
export function clearSearchAndFilters(setQuery: (query: string) => void, update: Update) {
  setQuery("");
  update({
    verdict: undefined,
    class: undefined,
    gateway: undefined,
    origin: undefined,
    made: undefined,
    money: undefined,
    money_days: undefined,
    risk: undefined,
    review: undefined,
    range: undefined,
    from: undefined,
    to: undefined,
    q: undefined,
  });
}

interface Props {
  filters: FilterValues;
  appliedFilters: ReturnType<typeof appliedFiltersOf>;
  now: string;
  smDown: boolean;
  query: string;
  setQuery: (query: string) => void;
  update: Update;
}

export function RefundFilters({ filters, appliedFilters, now, smDown, query, setQuery, update }: Props) {
  const { choose, pillsOf } = useChosenPills(filters, update);
  const definitions = filterDefinitions(filters, now, choose);
  return (
    <FilterBar smDown={smDown} sortOptions={SORT_OPTIONS} sort={filters.sort} update={update}>
      <Filters
        // Polaris's Filters takes the pills it shows from the applied filters when it mounts (and when
        // the number of filters changes), not when they change: a figure's link (money late, at risk
        // twice) applies its filter by navigation, so the bar is mounted again when one of those does.
        key={`${filters.moneyLate ? "money" : ""}|${filters.atRiskTwice ? "risk" : ""}`}
        queryValue={query}
        queryPlaceholder="Search by order name or number"
        onQueryChange={setQuery}
        onQueryClear={() => setQuery("")}
        onClearAll={() => clearSearchAndFilters(setQuery, update)}
        appliedFilters={pillsOf(appliedFilters, definitions)}
        filters={definitions}
      />
    </FilterBar>
  );
}

/** A filter that is one list of choices, titled by the bar's label. */
function choiceFilter(spec: {
  key: string;
  label: string;
  title: string;
  pinned?: boolean;
  allowMultiple?: boolean;
  choices: { value: string; label: string }[];
  selected: string[];
  onChange: (values: string[]) => void;
}) {
  const { key, label, title, pinned, allowMultiple, choices, selected, onChange } = spec;
  return {
    key,
    label,
    ...(pinned ? { pinned } : {}),
    filter: <ChoiceList title={title} titleHidden allowMultiple={allowMultiple} choices={choices} selected={selected} onChange={onChange} />,
  };
}

/** The date presets, and a custom range's two dates when it is chosen. */
function datesFilter(filters: FilterValues, now: string, update: Update) {
  return {
    key: "dates",
    label: "Dates",
    pinned: true,
    filter: (
      <BlockStack gap="200">
        <ChoiceList
          title="Dates"
          titleHidden
          choices={Object.entries(RANGE_LABELS).map(([value, label]) => ({ value, label }))}
          selected={filters.range ? [filters.range] : []}
          onChange={([range]) =>
            update(
              range === "custom"
                ? { range, from: filters.from ?? now.slice(0, 10), to: filters.to ?? now.slice(0, 10) }
                : { range, from: undefined, to: undefined },
            )
          }
        />
        {filters.range === "custom" ? (
          <>
            <TextField
              label="From"
              type="date"
              autoComplete="off"
              value={filters.from ?? ""}
              onChange={(v) => update({ range: "custom", from: v || undefined })}
            />
            <TextField label="To" type="date" autoComplete="off" value={filters.to ?? ""} onChange={(v) => update({ range: "custom", to: v || undefined })} />
          </>
        ) : null}
      </BlockStack>
    ),
  };
}

/** The bar's filters: three pinned, the others added from "Add filter". */
function filterDefinitions(filters: FilterValues, now: string, update: Update) {
  return [
    choiceFilter({
      key: "review",
      label: "Needs review",
      title: "Review",
      pinned: true,
      choices: Object.entries(REVIEW_LABELS).map(([value, label]) => ({ value, label })),
      selected: filters.review ? [filters.review] : [],
      onChange: (v) => update({ review: v[0] }),
    }),
    verdictFilter(Object.keys(VERDICT_LABELS), filters.verdicts, update),
    datesFilter(filters, now, update),
    problemFilter(filters.classes, update),
    choiceFilter({
      key: "gateway",
      label: "Gateway failures",
      title: "Gateway",
      choices: [{ value: "failed", label: "Only refunds whose gateway transaction failed" }],
      selected: filters.gatewayFailures ? ["failed"] : [],
      onChange: (v) => update({ gateway: v[0] }),
    }),
    choiceFilter({
      key: "money",
      label: "Money",
      title: "Money",
      choices: [{ value: "late", label: filters.moneyLate ? capitalized(filters.moneyLate.words) : "Not arrived in the time the shop's payouts allow" }],
      selected: filters.moneyLate ? ["late"] : [],
      onChange: (v) => update({ money: v[0], money_days: undefined }),
    }),
    choiceFilter({
      key: "risk",
      label: "Money at risk",
      title: "Money at risk",
      choices: [{ value: "twice", label: "At risk twice: a chargeback, or more back than was paid" }],
      selected: filters.atRiskTwice ? ["twice"] : [],
      onChange: (v) => update({ risk: v[0] }),
    }),
    choiceFilter({
      key: "made",
      label: "Made",
      title: "Where it was made",
      allowMultiple: true,
      choices: MADE_IN.map((value) => ({ value, label: MADE_LABELS[value] })),
      selected: filters.made,
      onChange: (v) => update({ made: v }),
    }),
  ];
}
