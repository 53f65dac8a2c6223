export const VERDICTS = ["PENDING", "VERIFIED", "CONTRADICTED", "FAILED", "UNVERIFIABLE"] as const;
export const ORIGINS = ["webhook", "reconciliation", "app"] as const;
/** The contract's contradiction classes, by the short names people filter with. */
export const CLASSES = { duplicate: "duplicate side effect", wrong_amount: "wrong amount", wrong_order: "wrong subject", pre_existing: "pre existing state" } as const;
export const SORTS = ["newest", "oldest", "amount_desc", "amount_asc"] as const;

export type Verdict = (typeof VERDICTS)[number];
export type ClassKey = keyof typeof CLASSES;

export interface DashboardFilters {
  verdicts: Verdict[];
  classes: ClassKey[];
  gatewayFailures: boolean;
  origins: string[];
  from?: string;
  to?: string;
  query: string;
  sort: (typeof SORTS)[number];
  after?: string;
  before?: string;
  pageSize: number;
}

const list = <T extends string>(params: URLSearchParams, name: string, allowed: readonly T[]): T[] =>
  params
    .getAll(name)
    .flatMap((v) => v.split(","))
    .filter((v): v is T => (allowed as readonly string[]).includes(v));

const day = (value: string | null) => (value && /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(value)) ? value : undefined);

/** The dashboard's filters from the URL; anything unknown is ignored, never an error. */
export function parseFilters(params: URLSearchParams): DashboardFilters {
  const sort = params.get("sort");
  return {
    verdicts: list(params, "verdict", VERDICTS),
    classes: list(params, "class", Object.keys(CLASSES) as ClassKey[]),
    gatewayFailures: params.get("gateway") === "failed",
    origins: list(params, "origin", ORIGINS),
    from: day(params.get("from")),
    to: day(params.get("to")),
    query: (params.get("q") ?? "").trim().slice(0, 100),
    sort: (SORTS as readonly string[]).includes(sort ?? "") ? (sort as DashboardFilters["sort"]) : "newest",
    after: params.get("after") ?? undefined,
    before: params.get("before") ?? undefined,
    pageSize: Math.min(Math.max(Number(params.get("size")) || 25, 1), 100),
  };
}

/** The period the figures cover: the chosen dates, else the last 30 days. */
export function period(filters: DashboardFilters, now: Date): { from: Date; to: Date } {
  const to = filters.to ? new Date(Date.parse(filters.to) + 86_400_000) : now;
  const from = filters.from ? new Date(filters.from) : new Date(to.getTime() - 30 * 86_400_000);
  return { from, to };
}
