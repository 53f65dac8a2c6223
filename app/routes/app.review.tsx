import { useState } from "react";
import { useUrlFilters } from "../dashboard/use-url-filters";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useFetcher, useLoaderData, useRevalidator, type ShouldRevalidateFunction } from "@remix-run/react";
import { Banner, BlockStack, Box, Button, Card, ChoiceList, EmptyState, Filters, InlineStack, Link, Page, Pagination, Select, Tabs, Text, TextField, useBreakpoints } from "@shopify/polaris";
import { TitleBar } from "@shopify/app-bridge-react";
import db from "../db.server";
import { REFUND_CREATED } from "../contracts/registry.server";
import { authenticateAdmin } from "../shopify/admin-auth.server";
import { refundAction } from "../review/routes.server";
import { resolutions, reviewPage } from "../review/review.server";
import { shopTimeZone } from "../dashboard/load.server";
import { CLASSES } from "../dashboard/filters";
import { VERDICT_LABELS, CLASS_LABELS } from "../dashboard/reasons";
import { Instant, VerdictBadge, age } from "../dashboard/ui";

export const meta: MetaFunction = () => [{ title: "Review queue · Refund Verifier" }];

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticateAdmin(request);
  const timeZone = await shopTimeZone(session.shop);
  return reviewPage(db, REFUND_CREATED.contract, session.shop, new URL(request.url).searchParams, new Date(), timeZone);
};

export const action = async ({ request }: ActionFunctionArgs) => {
  const { session, sessionToken } = await authenticateAdmin(request);
  const form = await request.formData();
  const id = String(form.get("id") ?? "");
  const outcome = await refundAction(session.shop, id, form, String(sessionToken?.sub ?? "unknown"), new Date());
  // A resolve that lost the race: say who won and what they wrote, so nobody's note is lost unseen.
  const winner = !outcome.ok && outcome.status === 409 ? (await resolutions(db, session.shop, [id])).get(id) : undefined;
  return json({ ...outcome, resolvedBy: winner?.by ?? null, resolvedNote: winner?.note ?? null, resolvedAt: winner?.at ?? null }, { status: outcome.status });
};

/** After a lost race the list is left as it is: the item stays, with its banner and the typed note. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ actionResult, defaultShouldRevalidate }) =>
  actionResult && typeof actionResult === "object" && (actionResult as { status?: number }).status === 409 ? false : defaultShouldRevalidate;

type Data = ReturnType<typeof useLoaderData<typeof loader>>;
type Item = Data["items"][number];

const SORT_OPTIONS = [
  { label: "Oldest first", value: "oldest" },
  { label: "Newest first", value: "newest" },
  { label: "Largest amount", value: "amount_desc" },
  { label: "Smallest amount", value: "amount_asc" },
];
const orderLabel = (item: Item) => item.orderName ?? `Order ${item.orderId}`;

function ReviewItem({ item, now, timeZone }: { item: Item; now: string; timeZone: string }) {
  const fetcher = useFetcher<typeof action>();
  const revalidator = useRevalidator();
  const [note, setNote] = useState("");
  const result = fetcher.data;
  const lost = result && !result.ok && result.status === 409;
  return (
    <div data-review-item={item.id}>
      <Card>
        <BlockStack gap="300">
          <InlineStack align="space-between" blockAlign="center" gap="200">
            <InlineStack gap="200" blockAlign="center">
              <Link url={`/app/refunds/${item.id}`}>
                <Text as="span" variant="headingSm">
                  {orderLabel(item)}
                </Text>
              </Link>
              <VerdictBadge status={item.status} />
              <Text as="span">{item.amountDisplay ? `${item.amountDisplay} ${item.currency ?? ""}` : ""}</Text>
            </InlineStack>
            {item.decidedAt ? (
              <Text as="span" tone="subdued" variant="bodySm">
                {`decided ${age(item.decidedAt, now)} · `}
                <Instant iso={item.decidedAt} timeZone={timeZone} />
              </Text>
            ) : null}
          </InlineStack>
          <Text as="p">{item.reasonText}</Text>
          {item.resolution ? (
            <Box background="bg-surface-secondary" padding="300" borderRadius="200">
              <BlockStack gap="100">
                <Text as="p" fontWeight="semibold">
                  {`Resolved by ${item.resolution.by} · `}
                  <Instant iso={item.resolution.at} timeZone={timeZone} />
                </Text>
                <Text as="p">{item.resolution.note ?? ""}</Text>
              </BlockStack>
            </Box>
          ) : (
            <>
              {lost ? (
                <Banner tone="warning" title={result.resolvedBy ? `${result.resolvedBy} resolved this refund first` : result.message} action={{ content: "Show the current queue", onAction: () => revalidator.revalidate() }}>
                  <BlockStack gap="100">
                    {result.resolvedNote ? <p>{`Their note: “${result.resolvedNote}”`}</p> : null}
                    <p>Your note was not saved. It is still in the box below if you want to copy it to the refund's evidence page.</p>
                  </BlockStack>
                </Banner>
              ) : result && !result.ok ? (
                <Banner tone="critical" title={result.message} />
              ) : null}
              <fetcher.Form method="post">
                <input type="hidden" name="intent" value="resolve" />
                <input type="hidden" name="id" value={item.id} />
                <input type="hidden" name="revision" value={item.revision} />
                <InlineStack gap="200" blockAlign="end" wrap={false}>
                  <div style={{ flex: 1, minWidth: 0 }}>
                    <TextField label={`Resolution note for the refund on ${orderLabel(item)}`} labelHidden placeholder="What you checked and what you did" name="note" value={note} onChange={setNote} autoComplete="off" />
                  </div>
                  <Button submit variant="primary" loading={fetcher.state !== "idle"} disabled={Boolean(lost)} accessibilityLabel={`Resolve the refund on ${orderLabel(item)}`}>
                    Resolve
                  </Button>
                </InlineStack>
              </fetcher.Form>
            </>
          )}
        </BlockStack>
      </Card>
    </div>
  );
}

export default function ReviewQueue() {
  const { view, items, now, timeZone, pageInfo, total, counts, filters } = useLoaderData<typeof loader>();
  const { smDown } = useBreakpoints();
  const { update, page, query, setQuery } = useUrlFilters(filters.query);

  const tabs = [
    { id: "open", content: `Needs review (${counts.open})`, panelID: "review-panel" },
    { id: "resolved", content: `Resolved (${counts.resolved})`, panelID: "review-panel" },
  ];
  const appliedFilters = [
    ...(filters.verdicts.length ? [{ key: "verdict", label: `Verdict: ${filters.verdicts.map((v) => VERDICT_LABELS[v]).join(", ")}`, onRemove: () => update({ verdict: undefined }) }] : []),
    ...(filters.classes.length ? [{ key: "class", label: `Problem: ${filters.classes.map((c) => CLASS_LABELS[c]).join(", ")}`, onRemove: () => update({ class: undefined }) }] : []),
  ];

  return (
    <Page backAction={{ content: "Refunds", url: "/app" }} title="Review queue" subtitle={view === "open" ? "Refunds a person must look at, oldest first" : "Refunds a person has resolved, with their notes"}>
      <TitleBar title="Review queue" />
      <BlockStack gap="300">
        <Card padding="0">
          <Tabs tabs={tabs} selected={view === "resolved" ? 1 : 0} onSelect={(index) => update({ view: index === 1 ? "resolved" : undefined, sort: undefined })} fitted={smDown} />
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
                    update({ verdict: undefined, class: undefined, q: undefined });
                  }}
                  appliedFilters={appliedFilters}
                  filters={[
                    {
                      key: "verdict",
                      label: "Verdict",
                      pinned: true,
                      filter: <ChoiceList title="Verdict" titleHidden allowMultiple choices={["CONTRADICTED", "FAILED", "UNVERIFIABLE"].map((value) => ({ value, label: VERDICT_LABELS[value] }))} selected={filters.verdicts} onChange={(v) => update({ verdict: v })} />,
                    },
                    {
                      key: "class",
                      label: "Problem",
                      pinned: true,
                      filter: <ChoiceList title="Problem" titleHidden allowMultiple choices={Object.keys(CLASSES).map((value) => ({ value, label: CLASS_LABELS[value] }))} selected={filters.classes} onChange={(v) => update({ class: v })} />,
                    },
                  ]}
                />
              </div>
              <Box minWidth="180px" paddingBlockStart="100" paddingInlineStart={smDown ? "200" : "0"}>
                <Select label="Sort" labelInline options={SORT_OPTIONS} value={filters.sort} onChange={(v) => update({ sort: v })} />
              </Box>
            </div>
          </Box>
        </Card>
        <div id="review-panel" role="tabpanel" aria-label={view === "open" ? "Needs review" : "Resolved"}>
          <BlockStack gap="300">
            {items.length === 0 ? (
              <Card>
                <EmptyState heading={view === "open" ? "Nothing needs a person right now" : "Nothing resolved yet"} image="">
                  <p>{view === "open" ? "Contradicted, failed and unverifiable refunds appear here until someone resolves them." : "Refunds resolved with a note appear here, with who resolved them."}</p>
                </EmptyState>
              </Card>
            ) : (
              items.map((item) => <ReviewItem key={item.id} item={item} now={now} timeZone={timeZone} />)
            )}
            <Box paddingInline={{ xs: "400", sm: "0" }}>
              <InlineStack align="space-between" blockAlign="center" gap="200">
                <Text as="span" tone="subdued" variant="bodySm">
                  {`${total} refund${total === 1 ? "" : "s"}`}
                </Text>
                <Pagination hasPrevious={pageInfo.hasPrevious} onPrevious={() => page("before", pageInfo.startCursor)} hasNext={pageInfo.hasNext} onNext={() => page("after", pageInfo.endCursor)} />
              </InlineStack>
            </Box>
          </BlockStack>
        </div>
      </BlockStack>
    </Page>
  );
}
