import { useCallback } from "react";
import { useUrlFilters } from "../../dashboard/use-url-filters";
import type { MetaFunction } from "@remix-run/node";
import { isRouteErrorResponse, useLoaderData, useLocation, useRouteError } from "@remix-run/react";
import { Banner, BlockStack, Card, Page } from "@shopify/polaris";
import { TitleBar } from "@shopify/app-bridge-react";
import { useNarrowScreen } from "../../components/useNarrowScreen";
import { screenAction, screenLoader } from "../../screens/context.server";
import { act, load } from "../../screens/dashboard.server";
import { FirstRun } from "../../onboarding/FirstRun";
import { useLiveData } from "../../components/useLiveData";
import { PeriodHeader } from "./components/PeriodHeader";
import { AtRiskTwiceFigure, Figures, MoneyLateFigure, OutsideContractBanner } from "./components/Figures";
import { RefundFilters, appliedFiltersOf, clearSearchAndFilters } from "./components/RefundFilters";
import { RefundsTable } from "./components/RefundsTable";
import { ResultsPagination } from "../../dashboard/list-controls";
import { ErrorReference } from "../../lib/logging/request-id";
import { HistoryBackfill } from "./components/HistoryBackfill";
import { NewRows } from "./components/NewRows";
import { useHeldRows } from "./hooks/useHeldRows";
import { useFocusReturnedRow } from "../../components/return-focus";
import { afterEveryAction } from "../../components/revalidate";

export const meta: MetaFunction = () => [{ title: "Refunds · Refund Verifier" }];

export const loader = screenLoader(load);

export const shouldRevalidate = afterEveryAction;

/** "Verify history": starts a backfill of the shop's refunds, or shows the one running. */
export const action = screenAction(act);

export default function Dashboard() {
  const { figures, rows, pageInfo, filters, now, total, sweep, firstRun, backfill, historyMaxDays, timeZone } = useLoaderData<typeof loader>();
  const smDown = useNarrowScreen();
  const { params, update, page, query, setQuery } = useUrlFilters(filters.query);
  // While the history is verified, its progress moves every few seconds.
  useLiveData(backfill?.running ? 3_000 : undefined);
  const { visible, held, showAll } = useHeldRows(rows, useLocation().search);
  useFocusReturnedRow();

  const exportCsv = async () => {
    const response = await fetch(`/app/refunds.csv?${params.toString()}`);
    const url = URL.createObjectURL(await response.blob());
    const link = document.createElement("a");
    link.href = url;
    link.download = `refunds-${now.slice(0, 10)}.csv`;
    link.click();
    URL.revokeObjectURL(url);
  };

  const clearFilters = useCallback(() => clearSearchAndFilters(setQuery, update), [setQuery, update]);
  const appliedFilters = appliedFiltersOf(filters, update);
  const filtering = appliedFilters.length > 0 || Boolean(filters.query);

  if (firstRun) {
    return (
      <Page title="Refunds" subtitle="Every refund checked against what Shopify recorded">
        <TitleBar title="Refund Verifier" />
        <BlockStack gap="400">
          <HistoryBackfill backfill={backfill} maxDays={historyMaxDays} timeZone={timeZone} />
          <FirstRun sweep={sweep} />
        </BlockStack>
      </Page>
    );
  }

  return (
    <Page
      title="Refunds"
      subtitle="Every refund checked against what Shopify recorded"
      secondaryActions={[
        { content: "Export CSV", onAction: exportCsv },
        { content: `Review queue (${figures.waitingForReview})`, url: "/app/review" },
      ]}
    >
      <TitleBar title="Refund Verifier" />
      <BlockStack gap="400">
        <PeriodHeader filters={filters} now={now} timeZone={timeZone} sweep={sweep} />
        <Figures figures={figures} />
        <MoneyLateFigure figures={figures} />
        <AtRiskTwiceFigure figures={figures} />
        <OutsideContractBanner figures={figures} />
        <HistoryBackfill backfill={backfill} maxDays={historyMaxDays} timeZone={timeZone} />

        <Card padding="0">
          <RefundFilters filters={filters} appliedFilters={appliedFilters} now={now} smDown={smDown} query={query} setQuery={setQuery} update={update} />
          <NewRows held={held} onShow={showAll} />
          <RefundsTable rows={visible} now={now} timeZone={timeZone} smDown={smDown} filtering={filtering} onClearFilters={clearFilters} />
          <ResultsPagination text={`${total} refund${total === 1 ? "" : "s"} match`} pageInfo={pageInfo} page={page} padding={{ padding: "300" }} />
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
        {/* A sentence, never the error's own message: the log has it, under the answer's X-Request-Id. */}
        <p>Try again in a moment. If it keeps failing, contact support with the reference below.</p>
        <ErrorReference />
      </Banner>
    </Page>
  );
}
