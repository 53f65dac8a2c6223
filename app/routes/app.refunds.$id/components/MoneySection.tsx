import { Badge, BlockStack, Box, InlineStack, Text } from "@shopify/polaris";
import { SectionCard } from "../../../components/SectionCard";
import type { MoneyView } from "../../../settlement/view";
import { Instant } from "./Instant";
import { CopyButton } from "./CopyButton";
import { Fact } from "./Fact";
import { GrantPaymentsScopes } from "./GrantPaymentsScopes";

/**
 * Where a verified refund's money is (contract shopify.refund.settled): the headline, and when the
 * app follows it the payout, the day it was sent, the card network's reference and a sentence for
 * the customer, each to copy. When it does not follow it, the headline says why; when that is the
 * payments scopes not granted, a button asks Shopify for them.
 */
export function MoneySection({ money, times }: { money: MoneyView & { sentence: string | null }; times: Record<string, string> }) {
  const { headline, followed, sentence, knowledge } = money;
  return (
    <div data-money-section="">
      <SectionCard title="Money" badge={<Badge tone={headline.tone}>{headline.title}</Badge>}>
        <Text as="p">{headline.detail}</Text>
        {knowledge.kind === "not_granted" ? <GrantPaymentsScopes /> : null}
        {followed ? (
          <BlockStack gap="300">
            {followed.atGateway ? null : (
              <Fact label="Payout">
                <Text as="span">{followed.payoutLabel || "Not in a payout yet"}</Text>
              </Fact>
            )}
            {followed.processedAt ? (
              <Fact label="Sent to the customer">
                <Text as="span">
                  <Instant iso={followed.processedAt} times={times} />
                </Text>
              </Fact>
            ) : null}
            {followed.atGateway && !followed.references.length ? null : (
              <Fact label={followed.references.length > 1 ? "Card references (ARN)" : "Card reference (ARN)"}>
                {followed.references.length ? (
                  <BlockStack gap="100">
                    {followed.references.map((reference) => (
                      <InlineStack key={reference} gap="200" blockAlign="center" wrap>
                        <Text as="span" fontWeight="medium">
                          <code style={{ fontSize: "inherit", overflowWrap: "anywhere" }} data-arn="">
                            {reference}
                          </code>
                        </Text>
                        <CopyButton text={reference} label="Copy" accessibilityLabel={`Copy card reference ${reference}`} />
                      </InlineStack>
                    ))}
                  </BlockStack>
                ) : (
                  <Text as="span" tone="subdued">
                    Shopify has not shown one for this refund yet. The customer's bank can trace a card refund by it.
                  </Text>
                )}
              </Fact>
            )}
          </BlockStack>
        ) : null}
        {sentence ? (
          <Box background="bg-surface-secondary" padding="300" borderRadius="200">
            <BlockStack gap="200">
              <Text as="h3" variant="headingSm">
                For the customer
              </Text>
              <div data-customer-sentence="">
                <Text as="p">{sentence}</Text>
              </div>
              <InlineStack>
                <CopyButton text={sentence} label="Copy sentence" accessibilityLabel="Copy sentence for the customer" />
              </InlineStack>
            </BlockStack>
          </Box>
        ) : null}
      </SectionCard>
    </div>
  );
}
