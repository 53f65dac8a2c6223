import { useEffect, useRef } from "react";
import { useUrlFilters } from "../dashboard/use-url-filters";
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { isRouteErrorResponse, useLoaderData, useNavigate, useNavigation, useRevalidator, useRouteError } from "@remix-run/react";
import {
  Banner,
  BlockStack,
  Box,
  Card,
  ChoiceList,
  EmptyState,
  Filters,
  IndexTable,
  InlineGrid,
  InlineStack,
  Link,
  Page,
  Pagination,
  Select,
  Text,
  TextField,
  useBreakpoints,
} from "@shopify/polaris";
import { TitleBar } from "@shopify/app-bridge-react";
import { authenticateAdmin } from "../shopify/admin-auth.server";
import { loadDashboard, shopTimeZone } from "../dashboard/load.server";
import { CLASSES, ORIGINS, type RangeKey } from "../dashboard/filters";
import { Instant, ReviewBadge, VerdictBadge, adminOrderUrl, age, refundFormUrl, ORIGIN_LABELS } from "../dashboard/ui";
import { VERDICT_LABELS, CLASS_LABELS } from "../dashboard/reasons";
import { FINAL_VERDICTS } from "../contracts/schema";
import { FirstRun } from "../onboarding/FirstRun";
import { formatInstant } from "../time/format";

export const meta: MetaFunction = () => [{ title: "Refunds · Refund Verifier" }];

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticateAdmin(request);
  const timeZone = await shopTimeZone(session.shop);
  return loadDashboard(session.shop, new URL(request.url).searchParams, new Date(), timeZone);
};

/** The dashboard reloads its data this often while the tab is visible. */
const REFRESH_MS = 15_000;

const FIGURES = [...FINAL_VERDICTS, "PENDING" as const].map((status) => ({ status, label: VERDICT_LABELS[status] }));

const REVIEW_LABELS: Record<string, string> = { open: "Needs review", resolved: "Resolved" };
const RANGE_LABELS: Record<RangeKey, string> = { today: "Today", "7d": "Last 7 days", "30d": "Last 30 days", custom: "Custom dates" };
const SORT_OPTIONS = [
  { label: "Newest first", value: "newest" },
  { label: "Oldest first", value: "oldest" },
  { label: "Largest amount", value: "amount_desc" },
  { label: "Smallest amount", value: "amount_asc" },
];

type Data = ReturnType<typeof useLoaderData<typeof loader>>;
type Row = Data["rows"][number];

/** Reloads the loader's data every REFRESH_MS while the tab is visible, and at once when it becomes visible again. */
function useLiveData() {
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

/** The reconciliation sweep is the only guarantee for lost webhooks: say when it last looked. */
function sweepStatus(sweep: { lastCompletedAt: string | null; runningSince: string | null }, timeZone: string): string {
  const last = sweep.lastCompletedAt ? `lost-webhook check completed ${formatInstant(sweep.lastCompletedAt, timeZone)}` : "lost-webhook check not completed yet";
  return sweep.runningSince ? `${last}; one is running` : last;
}

/** Links inside a clickable row must not also trigger the row's own click. */
function Own({ children }: { children: React.ReactNode }) {
  return (
    <span onClick={(event) => event.stopPropagation()} onKeyDown={(event) => event.stopPropagation()} role="presentation">
      {children}
    </span>
  );
}

function orderLabel(row: Row) {
  return row.orderName ?? `Order ${row.orderId}`;
}

function OrderLink({ row }: { row: Row }) {
  return (
    <Own>
      <span data-refund-link={row.id}>
        <Link url={`/app/refunds/${row.id}`} removeUnderline monochrome>
          <Text as="span" fontWeight="semibold">
            {orderLabel(row)}
          </Text>
        </Link>
      </span>
    </Own>
  );
}

function RowLinks({ row }: { row: Row }) {
  return (
    <Own>
      <InlineStack gap="300" wrap>
        <Link url={adminOrderUrl(row.orderId)} target="_top" accessibilityLabel={`Order in admin: ${orderLabel(row)}`}>
          Order in admin
        </Link>
        <Link url={refundFormUrl(row.orderId)} accessibilityLabel={`Refund order ${orderLabel(row)} again`}>
          Refund
        </Link>
      </InlineStack>
    </Own>
  );
}

function Amount({ row, align }: { row: Row; align?: "end" }) {
  return (
    <>
      <Text as="span" alignment={align} numeric>
        {row.amountDisplay ? `${row.amountDisplay} ${row.currency ?? ""}` : "—"}
      </Text>
      {row.shopAmount ? (
        <Text as="span" alignment={align} numeric variant="bodySm" tone="subdued">
          {`${row.shopAmount} ${row.shopCurrency} in shop money`}
        </Text>
      ) : null}
    </>
  );
}

function Verdict({ row }: { row: Row }) {
  return (
    <>
      <VerdictBadge status={row.status} />
      {row.correlation === "fingerprint" ? (
        <Text as="p" variant="bodySm" tone="subdued">
          matched by order and amount only
        </Text>
      ) : null}
    </>
  );
}

function Age({ row, now, timeZone }: { row: Row; now: string; timeZone: string }) {
  return (
    <span title={formatInstant(row.startedAt, timeZone)}>
      <Text as="span">{age(row.startedAt, now)}</Text>
    </span>
  );
}

export default function Dashboard() {
  const { figures, rows, pageInfo, filters, now, total, sweep, firstRun, timeZone } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const { smDown } = useBreakpoints();
  const navigate = useNavigate();
  const { params, update, page, query, setQuery } = useUrlFilters(filters.query);
  useLiveData();

  const exportCsv = async () => {
    const response = await fetch(`/app/refunds.csv?${params.toString()}`);
    const url = URL.createObjectURL(await response.blob());
    const link = document.createElement("a");
    link.href = url;
    link.download = `refunds-${now.slice(0, 10)}.csv`;
    link.click();
    URL.revokeObjectURL(url);
  };

  const dateLabel = filters.range && filters.range !== "custom" ? RANGE_LABELS[filters.range] : `${filters.from ?? "…"} to ${filters.to ?? "…"}`;
  const appliedFilters = [
    ...(filters.review ? [{ key: "review", label: REVIEW_LABELS[filters.review], onRemove: () => update({ review: undefined }) }] : []),
    ...(filters.verdicts.length ? [{ key: "verdict", label: `Verdict: ${filters.verdicts.map((v) => VERDICT_LABELS[v]).join(", ")}`, onRemove: () => update({ verdict: undefined }) }] : []),
    ...(filters.classes.length ? [{ key: "class", label: `Problem: ${filters.classes.map((c) => CLASS_LABELS[c]).join(", ")}`, onRemove: () => update({ class: undefined }) }] : []),
    ...(filters.gatewayFailures ? [{ key: "gateway", label: "Gateway failures", onRemove: () => update({ gateway: undefined }) }] : []),
    ...(filters.origins.length ? [{ key: "origin", label: `Origin: ${filters.origins.map((o) => ORIGIN_LABELS[o]).join(", ")}`, onRemove: () => update({ origin: undefined }) }] : []),
    ...(filters.range ? [{ key: "dates", label: `Dates: ${dateLabel}`, onRemove: () => update({ range: undefined, from: undefined, to: undefined }) }] : []),
  ];
  const filtering = appliedFilters.length > 0 || Boolean(filters.query);
  const periodLabel = filters.range && filters.range !== "custom" ? RANGE_LABELS[filters.range] : filters.from || filters.to ? `${filters.from ?? "…"} to ${filters.to ?? "…"}` : "Last 30 days";

  if (firstRun) {
    return (
      <Page title="Refunds" subtitle="Every refund checked against what Shopify recorded">
        <TitleBar title="Refund Verifier" />
        <FirstRun sweep={sweep} />
      </Page>
    );
  }

  return (
    <Page title="Refunds" subtitle="Every refund checked against what Shopify recorded" secondaryActions={[{ content: "Export CSV", onAction: exportCsv }, { content: `Review queue (${figures.waitingForReview})`, url: "/app/review" }]}>
      <TitleBar title="Refund Verifier" />
      <BlockStack gap="400">
        <Box paddingInline={{ xs: "400", sm: "0" }}>
          <InlineStack align="space-between" blockAlign="center" gap="200">
            <Text as="h2" variant="headingMd">
              {periodLabel}
            </Text>
            <Text as="p" tone="subdued" id="sweep-status">
              Updated <Instant iso={now} timeZone={timeZone} />
              {` · ${sweepStatus(sweep, timeZone)}`}
            </Text>
          </InlineStack>
        </Box>
        <InlineGrid columns={{ xs: 3, md: 6 }} gap={{ xs: "200", md: "300" }}>
          {FIGURES.map(({ status, label }) => (
            <Card key={status}>
              <BlockStack gap="100">
                <InlineStack gap="100" blockAlign="center">
                  <VerdictBadge status={status} />
                </InlineStack>
                <Text as="p" variant="heading2xl" id={`figure-${status.toLowerCase()}`}>
                  {figures.counts[status] ?? 0}
                </Text>
                <Text as="p" tone="subdued" variant="bodySm">
                  {label}
                </Text>
                {figures.money
                  .filter((m) => m.status === status)
                  .map((m) => (
                    <Text key={m.currency} as="p" variant="bodySm">
                      {`${m.display} ${m.currency}`}
                    </Text>
                  ))}
              </BlockStack>
            </Card>
          ))}
          <Card background={figures.waitingForReview ? "bg-surface-caution" : undefined}>
            <BlockStack gap="100">
              <Text as="span" variant="bodySm" fontWeight="semibold">
                Needs a person
              </Text>
              <Text as="p" variant="heading2xl" id="figure-review">
                {figures.waitingForReview}
              </Text>
              <Link url="/app/review">Open review queue</Link>
            </BlockStack>
          </Card>
        </InlineGrid>
        {figures.outsideContractVersions ? (
          <Banner tone="warning" title={`${figures.outsideContractVersions} refund${figures.outsideContractVersions === 1 ? "'s" : "s'"} evidence came from an Admin API version the contract does not cover`}>
            <p>Shopify answered with a version outside the contract's list (an old version falls forward to the oldest supported one). Their verdicts are flagged on their evidence pages and in the CSV.</p>
          </Banner>
        ) : null}

        <Card padding="0">
          <Box padding="200">
            <div style={{ display: "flex", flexDirection: smDown ? "column" : "row", gap: "var(--p-space-200)", alignItems: smDown ? "stretch" : "flex-start" }}>
              <div style={{ flex: 1, minWidth: 0 }}>
                <Filters
                  queryValue={query}
                  queryPlaceholder="Search by order name or number"
                  onQueryChange={setQuery}
                  onQueryClear={() => setQuery("")}
                  onClearAll={() => {
                    setQuery("");
                    update({ verdict: undefined, class: undefined, gateway: undefined, origin: undefined, review: undefined, range: undefined, from: undefined, to: undefined, q: undefined });
                  }}
                  appliedFilters={appliedFilters}
                  filters={[
                    {
                      key: "review",
                      label: "Needs review",
                      pinned: true,
                      filter: <ChoiceList title="Review" titleHidden choices={Object.entries(REVIEW_LABELS).map(([value, label]) => ({ value, label }))} selected={filters.review ? [filters.review] : []} onChange={(v) => update({ review: v[0] })} />,
                    },
                    {
                      key: "verdict",
                      label: "Verdict",
                      pinned: true,
                      filter: <ChoiceList title="Verdict" titleHidden allowMultiple choices={Object.entries(VERDICT_LABELS).map(([value, label]) => ({ value, label }))} selected={filters.verdicts} onChange={(v) => update({ verdict: v })} />,
                    },
                    {
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
                            onChange={([range]) => update(range === "custom" ? { range, from: filters.from ?? now.slice(0, 10), to: filters.to ?? now.slice(0, 10) } : { range, from: undefined, to: undefined })}
                          />
                          {filters.range === "custom" ? (
                            <>
                              <TextField label="From" type="date" autoComplete="off" value={filters.from ?? ""} onChange={(v) => update({ range: "custom", from: v || undefined })} />
                              <TextField label="To" type="date" autoComplete="off" value={filters.to ?? ""} onChange={(v) => update({ range: "custom", to: v || undefined })} />
                            </>
                          ) : null}
                        </BlockStack>
                      ),
                    },
                    {
                      key: "class",
                      label: "Problem",
                      filter: <ChoiceList title="Problem" titleHidden allowMultiple choices={Object.keys(CLASSES).map((value) => ({ value, label: CLASS_LABELS[value] }))} selected={filters.classes} onChange={(v) => update({ class: v })} />,
                    },
                    {
                      key: "gateway",
                      label: "Gateway failures",
                      filter: <ChoiceList title="Gateway" titleHidden choices={[{ value: "failed", label: "Only refunds whose gateway transaction failed" }]} selected={filters.gatewayFailures ? ["failed"] : []} onChange={(v) => update({ gateway: v[0] })} />,
                    },
                    {
                      key: "origin",
                      label: "Origin",
                      filter: <ChoiceList title="Origin" titleHidden allowMultiple choices={ORIGINS.map((value) => ({ value, label: ORIGIN_LABELS[value] }))} selected={filters.origins} onChange={(v) => update({ origin: v })} />,
                    },
                  ]}
                />
              </div>
              <Box minWidth="180px" paddingBlockStart="100" paddingInlineStart={smDown ? "200" : "0"}>
                <Select label="Sort" labelInline options={SORT_OPTIONS} value={filters.sort} onChange={(v) => update({ sort: v })} />
              </Box>
            </div>
          </Box>
          <IndexTable
            resourceName={{ singular: "refund", plural: "refunds" }}
            itemCount={rows.length}
            selectable={false}
            condensed={smDown}
            loading={navigation.state === "loading" && navigation.location?.pathname === "/app"}
            emptyState={
              <EmptyState heading={filtering ? "No refunds match these filters" : "No refunds in this period"} image="">
                <p>{filtering ? "Try other filters, or clear them." : "Refunds made in this shop appear here within seconds of Shopify's webhook."}</p>
              </EmptyState>
            }
            headings={[{ title: "Order" }, { title: "Amount", alignment: "end" }, { title: "Verdict" }, { title: "Reason" }, { title: "Origin" }, { title: "Age" }, { title: "Review" }, { title: "Links" }]}
          >
            {rows.map((row, index) => (
              <IndexTable.Row id={row.id} key={row.id} position={index} onClick={() => navigate(`/app/refunds/${row.id}`)}>
                {smDown ? (
                  <IndexTable.Cell>
                    <div data-condensed-row={row.id} style={{ padding: "var(--p-space-100) 0", width: "100%" }}>
                      <BlockStack gap="100">
                        <InlineStack align="space-between" blockAlign="center" gap="200" wrap={false}>
                          <OrderLink row={row} />
                          <div style={{ textAlign: "end" }}>
                            <Amount row={row} />
                          </div>
                        </InlineStack>
                        <InlineStack gap="200" blockAlign="center">
                          <Verdict row={row} />
                          {row.reviewState !== "none" ? <ReviewBadge state={row.reviewState} /> : null}
                          <Text as="span" tone="subdued" variant="bodySm">
                            {`${ORIGIN_LABELS[row.origin] ?? row.origin} · ${age(row.startedAt, now)}`}
                          </Text>
                        </InlineStack>
                        <div style={{ whiteSpace: "normal" }}>
                          <Text as="p" variant="bodySm">
                            {row.reasonText}
                          </Text>
                        </div>
                        <RowLinks row={row} />
                      </BlockStack>
                    </div>
                  </IndexTable.Cell>
                ) : (
                  <>
                    <IndexTable.Cell>
                      <OrderLink row={row} />
                    </IndexTable.Cell>
                    <IndexTable.Cell>
                      <Amount row={row} align="end" />
                    </IndexTable.Cell>
                    <IndexTable.Cell>
                      <Verdict row={row} />
                    </IndexTable.Cell>
                    <IndexTable.Cell>
                      <div style={{ maxWidth: 360, whiteSpace: "normal" }}>
                        <Text as="span" variant="bodySm">
                          {row.reasonText}
                        </Text>
                      </div>
                    </IndexTable.Cell>
                    <IndexTable.Cell>{ORIGIN_LABELS[row.origin] ?? row.origin}</IndexTable.Cell>
                    <IndexTable.Cell>
                      <Age row={row} now={now} timeZone={timeZone} />
                    </IndexTable.Cell>
                    <IndexTable.Cell>
                      <ReviewBadge state={row.reviewState} />
                    </IndexTable.Cell>
                    <IndexTable.Cell>
                      <RowLinks row={row} />
                    </IndexTable.Cell>
                  </>
                )}
              </IndexTable.Row>
            ))}
          </IndexTable>
          <Box padding="300">
            <InlineStack align="space-between" blockAlign="center" gap="200">
              <Text as="span" tone="subdued" variant="bodySm">
                {`${total} refund${total === 1 ? "" : "s"} match`}
              </Text>
              <Pagination hasPrevious={pageInfo.hasPrevious} onPrevious={() => page("before", pageInfo.startCursor)} hasNext={pageInfo.hasNext} onNext={() => page("after", pageInfo.endCursor)} />
            </InlineStack>
          </Box>
        </Card>
      </BlockStack>
    </Page>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 401) throw error;
  return (
    <Page title="Refunds" backAction={{ content: "Refunds", url: "/app" }}>
      <Banner tone="critical" title="The refunds could not be loaded">
        <p>{error instanceof Error ? error.message : "Try again in a moment. If it keeps failing, contact support."}</p>
      </Banner>
    </Page>
  );
}
