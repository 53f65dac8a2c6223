import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { BlockStack, Card, InlineStack, Layout, Page, Text, Badge } from "@shopify/polaris";
import { TitleBar } from "@shopify/app-bridge-react";
import { authenticate } from "../shopify.server";
import { REFUND_CREATED } from "../contracts/registry.server";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const { contract, computedHash } = REFUND_CREATED;
  return {
    shop: session.shop,
    contract: { id: contract.id, version: contract.version, hash: computedHash, summary: contract.summary },
  };
};

export default function Home() {
  const { shop, contract } = useLoaderData<typeof loader>();
  return (
    <Page>
      <TitleBar title="Refund Verifier" />
      <Layout>
        <Layout.Section>
          <Card>
            <BlockStack gap="200">
              <InlineStack gap="200" blockAlign="center">
                <Text as="h2" variant="headingMd">
                  {`Verifying refunds for ${shop}`}
                </Text>
                <Badge tone="success">Active</Badge>
              </InlineStack>
              <Text as="p">{contract.summary}</Text>
              <Text as="p" tone="subdued">
                Contract {contract.id} {contract.version} · hash {contract.hash}
              </Text>
            </BlockStack>
          </Card>
        </Layout.Section>
      </Layout>
    </Page>
  );
}
