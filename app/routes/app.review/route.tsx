import { useUrlFilters } from "../../dashboard/use-url-filters";
import { json, type MetaFunction } from "@remix-run/node";
import { useLoaderData, type ShouldRevalidateFunction } from "@remix-run/react";
import { BlockStack, Card, Page } from "@shopify/polaris";
import { TitleBar } from "@shopify/app-bridge-react";
import { useNarrowScreen } from "../../components/useNarrowScreen";
import db from "../../db.server";
import { REFUND_CREATED } from "../../contracts/registry.server";
import { authenticateAdmin } from "../../screens/admin-auth.server";
import { refundAction } from "../../review/actions.server";
import { reviewPage } from "../../review/review.server";
import { shopTimeZone } from "../../shops/profile.server";
import { interactiveGateway } from "../../shopify.server";
import { ReviewItem } from "./components/ReviewItem";
import { QueueTabs } from "./components/QueueTabs";
import { QueueFilters, clearQueueFilters } from "./components/QueueFilters";
import { EmptyQueue } from "./components/EmptyQueue";
import { WaitingForApproval } from "./components/WaitingForApproval";
import { ResultsPagination } from "../../dashboard/list-controls";
import type { Action, Loader } from "./types";

export const meta: MetaFunction = () => [{ title: "Review queue · Refund Verifier" }];

export const loader: Loader = async ({ request }) => {
  const { session } = await authenticateAdmin(request);
  const [gateway, now] = [interactiveGateway(), new Date()];
  const timeZone = await shopTimeZone(db, session.shop, { gateway, now });
  return reviewPage(db, gateway, REFUND_CREATED.contract, session.shop, new URL(request.url).searchParams, now, timeZone);
};

export const action: Action = async ({ request }) => {
  const { session, sessionToken } = await authenticateAdmin(request);
  const form = await request.formData();
  const outcome = await refundAction(session.shop, String(form.get("id") ?? ""), form, String(sessionToken?.sub ?? "unknown"), new Date());
  // A resolve that lost the race says who won and what they wrote (the pair's winner too), so nobody's note is lost unseen.
  return json(
    outcome.ok
      ? outcome
      : { ...outcome, resolvedBy: outcome.resolvedBy ?? null, resolvedNote: outcome.resolvedNote ?? null, resolvedAt: outcome.resolvedAt ?? null },
    { status: outcome.status },
  );
};

/** After a lost race the list is left as it is: the item stays, with its banner and the typed note. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ actionResult, defaultShouldRevalidate }) =>
  actionResult && typeof actionResult === "object" && (actionResult as { status?: number }).status === 409 ? false : defaultShouldRevalidate;

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
