import { useUrlFilters } from "../../dashboard/use-url-filters";
import type { MetaFunction } from "@remix-run/node";
import { useLoaderData, type ShouldRevalidateFunction } from "@remix-run/react";
import { BlockStack, Card, Page } from "@shopify/polaris";
import { TitleBar } from "@shopify/app-bridge-react";
import { useNarrowScreen } from "../../components/useNarrowScreen";
import { screenAction, screenLoader } from "../../screens/context.server";
import { act, load } from "../../screens/review-queue.server";
import { ReviewItem } from "./components/ReviewItem";
import { QueueTabs } from "./components/QueueTabs";
import { QueueFilters, clearQueueFilters } from "./components/QueueFilters";
import { EmptyQueue } from "./components/EmptyQueue";
import { WaitingForApproval } from "./components/WaitingForApproval";
import { ResultsPagination } from "../../dashboard/list-controls";
import { afterEveryAction } from "../../components/revalidate";

export const meta: MetaFunction = () => [{ title: "Review queue · Refund Verifier" }];

export const loader = screenLoader(load);

/** Resolve or re-check the item the form names. */
export const action = screenAction((context) => act(context));

/** After a lost race the list is left as it is: the item stays, with its banner and the typed note; after any other action the queue is read again. */
export const shouldRevalidate: ShouldRevalidateFunction = (args) =>
  args.actionResult && typeof args.actionResult === "object" && (args.actionResult as { status?: number }).status === 409 ? false : afterEveryAction(args);

export default function ReviewQueue() {
  const { view, items, waiting, now, timeZone, pageInfo, total, counts, filters } = useLoaderData<typeof loader>();
  const smDown = useNarrowScreen();
  const { update, page, query, setQuery } = useUrlFilters(filters.query);
  const filtering = filters.verdicts.length > 0 || filters.classes.length > 0 || Boolean(filters.query);

  return (
    <Page
      backAction={{ content: "Refunds", url: "/app" }}
      title="Review queue"
      subtitle={
        view === "open"
          ? "Refunds since the app was installed that a person must look at, newest first"
          : view === "history"
            ? "Refunds from before the app was installed, found when it verified the shop's history"
            : "Refunds a person has resolved, with their notes"
      }
    >
      <TitleBar title="Review queue" />
      <BlockStack gap="300">
        <WaitingForApproval waiting={waiting} now={now} timeZone={timeZone} smDown={smDown} />
        <Card padding="0">
          <QueueTabs view={view} counts={counts} smDown={smDown} update={update} />
          <QueueFilters filters={filters} smDown={smDown} query={query} setQuery={setQuery} update={update} />
        </Card>
        <div id="review-panel" role="tabpanel" aria-label={view === "open" ? "Needs review" : view === "history" ? "From before install" : "Resolved"}>
          <BlockStack gap="300">
            {items.length === 0 ? (
              <EmptyQueue view={view} filtering={filtering} onClearFilters={() => clearQueueFilters(setQuery, update)} />
            ) : (
              items.map((item) => <ReviewItem key={item.id} item={item} now={now} timeZone={timeZone} />)
            )}
            <ResultsPagination
              text={`${total} ${view === "resolved" ? "resolved " : ""}item${total === 1 ? "" : "s"}${view === "resolved" ? "" : " to review"}`}
              pageInfo={pageInfo}
              page={page}
              padding={{ paddingInline: { xs: "400", sm: "0" } }}
            />
          </BlockStack>
        </div>
      </BlockStack>
    </Page>
  );
}
