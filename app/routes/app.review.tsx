import { useState } from "react";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useFetcher, useLoaderData } from "@remix-run/react";
import { Banner, BlockStack, Button, Card, EmptyState, InlineStack, Link, Page, Text, TextField } from "@shopify/polaris";
import { TitleBar } from "@shopify/app-bridge-react";
import { authenticateAdmin } from "../shopify/admin-auth.server";
import { refundAction, reviewQueueData } from "../review/routes.server";
import { VerdictBadge, age, when } from "../dashboard/ui";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticateAdmin(request);
  return reviewQueueData(session.shop, new Date());
};

export const action = async ({ request }: ActionFunctionArgs) => {
  const { session, sessionToken } = await authenticateAdmin(request);
  const form = await request.formData();
  const outcome = await refundAction(session.shop, String(form.get("id") ?? ""), form, String(sessionToken?.sub ?? "unknown"), new Date());
  return json(outcome, { status: outcome.status });
};

type Item = Awaited<ReturnType<typeof loader>>["items"][number];

function ReviewItem({ item, now }: { item: Item; now: string }) {
  const fetcher = useFetcher<typeof action>();
  const [note, setNote] = useState("");
  return (
    <div data-review-item={item.id}>
    <Card>
      <BlockStack gap="300">
        <InlineStack align="space-between" blockAlign="center">
          <InlineStack gap="200" blockAlign="center">
            <Link url={`/app/refunds/${item.id}`}>
              <Text as="span" variant="headingSm">{item.orderName ?? `Order ${item.orderId}`}</Text>
            </Link>
            <VerdictBadge status={item.status} />
            <Text as="span">{item.amountDisplay ? `${item.amountDisplay} ${item.currency ?? ""}` : ""}</Text>
          </InlineStack>
          <Text as="span" tone="subdued" variant="bodySm">{item.decidedAt ? `decided ${age(item.decidedAt, now)} (${when(item.decidedAt)})` : ""}</Text>
        </InlineStack>
        <Text as="p">{item.reasonText}</Text>
        {fetcher.data && !fetcher.data.ok ? <Banner tone={fetcher.data.status === 409 ? "warning" : "critical"} title={fetcher.data.message} /> : null}
        <fetcher.Form method="post">
          <input type="hidden" name="intent" value="resolve" />
          <input type="hidden" name="id" value={item.id} />
          <input type="hidden" name="revision" value={item.revision} />
          <InlineStack gap="200" blockAlign="end" wrap={false}>
            <div style={{ flex: 1 }}>
              <TextField label="Resolution note" labelHidden placeholder="What you checked and what you did" name="note" value={note} onChange={setNote} autoComplete="off" />
            </div>
            <Button submit variant="primary" loading={fetcher.state !== "idle"}>Resolve</Button>
          </InlineStack>
        </fetcher.Form>
      </BlockStack>
    </Card>
    </div>
  );
}

export default function ReviewQueue() {
  const { items, now } = useLoaderData<typeof loader>();
  return (
    <Page backAction={{ content: "Refunds", url: "/app" }} title="Review queue" subtitle="Refunds a person must look at, oldest first">
      <TitleBar title="Review queue" />
      <BlockStack gap="300">
        {items.length === 0 ? (
          <Card>
            <EmptyState heading="Nothing needs a person right now" image="">
              <p>Contradicted, failed and unverifiable refunds appear here until someone resolves them.</p>
            </EmptyState>
          </Card>
        ) : (
          items.map((item) => <ReviewItem key={item.id} item={item} now={now} />)
        )}
      </BlockStack>
    </Page>
  );
}
