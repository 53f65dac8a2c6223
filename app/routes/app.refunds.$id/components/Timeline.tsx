import { Badge, BlockStack, InlineStack, Text } from "@shopify/polaris";
import { SectionCard } from "../../../components/SectionCard";
import type { Detail } from "../types";
import { Instant } from "./Instant";
import { KeepWhole } from "./KeepWhole";

/** Who a step of the timeline came from, in a merchant's words (the engine's names are in Technical details). */
const STEP_LABELS = { webhook: "Shopify", observation: "Shopify", evaluation: "Verdict", review: "Staff" } as const;

/** The refund's story in time order, with the duplicate deliveries Shopify sent counted once. */
export function Timeline({ detail }: { detail: Detail }) {
  return (
    <SectionCard title="Timeline">
      {detail.duplicatesDropped ? (
        <Text
          as="p"
          tone="subdued"
        >{`${detail.duplicatesDropped} duplicate webhook deliver${detail.duplicatesDropped === 1 ? "y was" : "ies were"} dropped.`}</Text>
      ) : null}
      <BlockStack gap="300">
        {detail.timeline.map((entry, i) => (
          <BlockStack key={i} gap="050">
            <InlineStack gap="200" blockAlign="center">
              <Text as="span" fontWeight="semibold">
                {entry.title}
              </Text>
              {entry.tone ? <Badge tone={entry.tone}>{STEP_LABELS[entry.kind]}</Badge> : <Badge>{STEP_LABELS[entry.kind]}</Badge>}
            </InlineStack>
            <Text as="span" variant="bodySm" tone="subdued">
              <Instant iso={entry.at} times={detail.times} />
              {entry.detail ? <KeepWhole text={` · ${entry.detail}`} /> : null}
            </Text>
          </BlockStack>
        ))}
      </BlockStack>
    </SectionCard>
  );
}
