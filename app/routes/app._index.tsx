import { useCallback, useEffect, useState } from "react";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData, useNavigate, useNavigation, useRouteError, useSearchParams } from "@remix-run/react";
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
} from "@shopify/polaris";
import { TitleBar } from "@shopify/app-bridge-react";
import { authenticateAdmin } from "../shopify/admin-auth.server";
import { loadDashboard } from "../dashboard/load.server";
import { CLASSES, ORIGINS } from "../dashboard/filters";
import { ReviewBadge, VerdictBadge, adminOrderUrl, age, ORIGIN_LABELS } from "../dashboard/ui";
import { VERDICT_LABELS } from "../dashboard/reasons";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticateAdmin(request);
  return loadDashboard(session.shop, new URL(request.url).searchParams, new Date());
};

const FIGURES = [
  { status: "VERIFIED", label: "Verified" },
  { status: "CONTRADICTED", label: "Contradicted" },
  { status: "FAILED", label: "Gateway failed" },
  { status: "UNVERIFIABLE", label: "Unverifiable" },
  { status: "PENDING", label: "Pending" },
] as const;

const CLASS_LABELS: Record<string, string> = { duplicate: "Duplicate refund", wrong_amount: "Wrong amount", wrong_order: "Wrong order", pre_existing: "Pre-existing refund" };
const SORT_OPTIONS = [
  { label: "Newest first", value: "newest" },
  { label: "Oldest first", value: "oldest" },
  { label: "Largest amount", value: "amount_desc" },
  { label: "Smallest amount", value: "amount_asc" },
];

/** The reconciliation sweep is the only guarantee for lost webhooks: say when it last looked. */
function sweepStatus(sweep: { lastCompletedAt: string | null; runningSince: string | null }): string {
  const last = sweep.lastCompletedAt ? `lost-webhook check completed ${sweep.lastCompletedAt.slice(0, 16).replace("T", " ")} UTC` : "lost-webhook check not completed yet";
  return sweep.runningSince ? `${last}; one is running` : last;
}

export default function Dashboard() {
  const { figures, rows, pageInfo, filters, now, total, sweep } = useLoaderData<typeof loader>();
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const navigation = useNavigation();
  const [query, setQuery] = useState(filters.query);

  const update = useCallback(
    (changes: Record<string, string | string[] | undefined>) => {
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
    if (query === filters.query) return;
    const timer = setTimeout(() => update({ q: query || undefined }), 300);
    return () => clearTimeout(timer);
  }, [query, filters.query, update]);

  const page = (key: "after" | "before", cursor: string | null) => {
    const next = new URLSearchParams(params);
    next.delete("after");
    next.delete("before");
    if (cursor) next.set(key, cursor);
    setParams(next, { preventScrollReset: true });
  };

  const exportCsv = async () => {
    const response = await fetch(`/app/refunds.csv?${params.toString()}`);
    const url = URL.createObjectURL(await response.blob());
    const link = document.createElement("a");
    link.href = url;
    link.download = `refunds-${now.slice(0, 10)}.csv`;
    link.click();
    URL.revokeObjectURL(url);
  };

  const appliedFilters = [
    ...(filters.verdicts.length ? [{ key: "verdict", label: `Verdict: ${filters.verdicts.map((v) => VERDICT_LABELS[v]).join(", ")}`, onRemove: () => update({ verdict: undefined }) }] : []),
    ...(filters.classes.length ? [{ key: "class", label: `Problem: ${filters.classes.map((c) => CLASS_LABELS[c]).join(", ")}`, onRemove: () => update({ class: undefined }) }] : []),
    ...(filters.gatewayFailures ? [{ key: "gateway", label: "Gateway failures", onRemove: () => update({ gateway: undefined }) }] : []),
    ...(filters.origins.length ? [{ key: "origin", label: `Origin: ${filters.origins.map((o) => ORIGIN_LABELS[o]).join(", ")}`, onRemove: () => update({ origin: undefined }) }] : []),
    ...(filters.from || filters.to ? [{ key: "dates", label: `Dates: ${filters.from ?? "…"} to ${filters.to ?? "…"}`, onRemove: () => update({ from: undefined, to: undefined }) }] : []),
  ];
  const filtering = appliedFilters.length > 0 || Boolean(filters.query);
  const periodLabel = filters.from || filters.to ? `${figures.from.slice(0, 10)} to ${figures.to.slice(0, 10)}` : "Last 30 days";

  return (
    <Page title="Refunds" subtitle="Every refund checked against what Shopify recorded" secondaryActions={[{ content: "Export CSV", onAction: exportCsv }, { content: `Review queue (${figures.waitingForReview})`, url: "/app/review" }]}>
      <TitleBar title="Refund Verifier" />
      <BlockStack gap="400">
        <InlineStack align="space-between" blockAlign="center">
          <Text as="h2" variant="headingMd">
            {periodLabel}
          </Text>
          <Text as="p" tone="subdued" id="sweep-status">
            {`Updated ${now.slice(11, 19)} UTC · ${sweepStatus(sweep)}`}
          </Text>
        </InlineStack>
        <InlineGrid columns={{ xs: 2, sm: 3, md: 6 }} gap="300">
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
            <InlineStack align="space-between" gap="200" blockAlign="start" wrap={false}>
              <div style={{ flex: 1 }}>
                <Filters
                  queryValue={query}
                  queryPlaceholder="Search by order name or number"
                  onQueryChange={setQuery}
                  onQueryClear={() => setQuery("")}
                  onClearAll={() => {
                    setQuery("");
                    update({ verdict: undefined, class: undefined, gateway: undefined, origin: undefined, from: undefined, to: undefined, q: undefined });
                  }}
                  appliedFilters={appliedFilters}
                  filters={[
                    {
                      key: "verdict",
                      label: "Verdict",
                      pinned: true,
                      filter: <ChoiceList title="Verdict" titleHidden allowMultiple choices={Object.entries(VERDICT_LABELS).map(([value, label]) => ({ value, label }))} selected={filters.verdicts} onChange={(v) => update({ verdict: v })} />,
                    },
                    {
                      key: "class",
                      label: "Problem",
                      pinned: true,
                      filter: <ChoiceList title="Problem" titleHidden allowMultiple choices={Object.keys(CLASSES).map((value) => ({ value, label: CLASS_LABELS[value] }))} selected={filters.classes} onChange={(v) => update({ class: v })} />,
                    },
                    {
                      key: "gateway",
                      label: "Gateway failures",
                      pinned: true,
                      filter: <ChoiceList title="Gateway" titleHidden choices={[{ value: "failed", label: "Only refunds whose gateway transaction failed" }]} selected={filters.gatewayFailures ? ["failed"] : []} onChange={(v) => update({ gateway: v[0] })} />,
                    },
                    {
                      key: "origin",
                      label: "Origin",
                      filter: <ChoiceList title="Origin" titleHidden allowMultiple choices={ORIGINS.map((value) => ({ value, label: ORIGIN_LABELS[value] }))} selected={filters.origins} onChange={(v) => update({ origin: v })} />,
                    },
                    {
                      key: "dates",
                      label: "Dates",
                      filter: (
                        <BlockStack gap="200">
                          <TextField label="From" type="date" autoComplete="off" value={filters.from ?? ""} onChange={(v) => update({ from: v || undefined })} />
                          <TextField label="To" type="date" autoComplete="off" value={filters.to ?? ""} onChange={(v) => update({ to: v || undefined })} />
                        </BlockStack>
                      ),
                    },
                  ]}
                />
              </div>
              <Box minWidth="180px" paddingBlockStart="100">
                <Select label="Sort" labelInline options={SORT_OPTIONS} value={filters.sort} onChange={(v) => update({ sort: v })} />
              </Box>
            </InlineStack>
          </Box>
          <IndexTable
            resourceName={{ singular: "refund", plural: "refunds" }}
            itemCount={rows.length}
            selectable={false}
            loading={navigation.state === "loading"}
            emptyState={
              <EmptyState heading={filtering ? "No refunds match these filters" : "No refunds yet"} image="">
                <p>{filtering ? "Try other filters, or clear them." : "Refunds made in this shop appear here within seconds of Shopify's webhook."}</p>
              </EmptyState>
            }
            headings={[{ title: "Order" }, { title: "Amount", alignment: "end" }, { title: "Verdict" }, { title: "Reason" }, { title: "Origin" }, { title: "Age" }, { title: "Review" }]}
          >
            {rows.map((row, index) => (
              <IndexTable.Row id={row.id} key={row.id} position={index} onClick={() => navigate(`/app/refunds/${row.id}`)}>
                <IndexTable.Cell>
                  <span onClick={(event) => event.stopPropagation()} onKeyDown={(event) => event.stopPropagation()} role="presentation">
                    <Link url={adminOrderUrl(row.orderId)} target="_top" removeUnderline monochrome>
                      <Text as="span" fontWeight="semibold">
                        {row.orderName ?? `Order ${row.orderId}`}
                      </Text>
                    </Link>
                  </span>
                </IndexTable.Cell>
                <IndexTable.Cell>
                  <Text as="span" alignment="end" numeric>
                    {row.amountDisplay ? `${row.amountDisplay} ${row.currency ?? ""}` : "—"}
                  </Text>
                  {row.shopAmount ? (
                    <Text as="span" alignment="end" numeric variant="bodySm" tone="subdued">
                      {`${row.shopAmount} ${row.shopCurrency} in shop money`}
                    </Text>
                  ) : null}
                </IndexTable.Cell>
                <IndexTable.Cell>
                  <VerdictBadge status={row.status} />
                  {row.correlation === "fingerprint" ? (
                    <Text as="p" variant="bodySm" tone="subdued">
                      matched by order and amount only
                    </Text>
                  ) : null}
                </IndexTable.Cell>
                <IndexTable.Cell>
                  <div style={{ maxWidth: 360, whiteSpace: "normal" }}>
                    <Text as="span" variant="bodySm">
                      {row.reasonText}
                    </Text>
                  </div>
                </IndexTable.Cell>
                <IndexTable.Cell>{ORIGIN_LABELS[row.origin] ?? row.origin}</IndexTable.Cell>
                <IndexTable.Cell>{age(row.startedAt, now)}</IndexTable.Cell>
                <IndexTable.Cell>
                  <ReviewBadge state={row.reviewState} />
                </IndexTable.Cell>
              </IndexTable.Row>
            ))}
          </IndexTable>
          <Box padding="300">
            <InlineStack align="space-between" blockAlign="center">
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
  return (
    <Page title="Refunds">
      <Banner tone="critical" title="The refunds could not be loaded">
        <p>{error instanceof Error ? error.message : "Try again in a moment. If it keeps failing, contact support."}</p>
      </Banner>
    </Page>
  );
}
