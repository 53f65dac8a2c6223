import { Link, Text } from "@shopify/polaris";
import { SectionCard } from "../../../components/SectionCard";
import { money } from "../../../verdicts/words";
import type { Detail } from "../types";
import { Instant } from "./Instant";

/** "What the verdict means": the lead sentence, its details, the next step and related links, then what else is known of the refund and its checks. */
export function LeadCard({ detail }: { detail: Detail }) {
  const { refund, lead, times } = detail;
  const at = (iso: string) => <Instant iso={iso} times={times} />;
  return (
    <SectionCard title="What the verdict means">
      <div data-evidence-lead="">
        <Text as="p" variant="headingLg" fontWeight="semibold">
          {lead.sentence}
        </Text>
      </div>
      {lead.details.map((line) => (
        <Text key={line} as="p">
          {line}
        </Text>
      ))}
      {lead.nextStep ? (
        <Text as="p">
          <Text as="span" fontWeight="semibold">
            Next step:{" "}
          </Text>
          {lead.nextStep}
        </Text>
      ) : null}
      {lead.links.length ? (
        <ul style={{ margin: 0, paddingInlineStart: 20 }} aria-label="Related">
          {lead.links.map((l) => (
            <li key={l.url}>
              <Link url={l.url} target={l.admin ? "_top" : undefined}>
                {l.label}
              </Link>
            </li>
          ))}
        </ul>
      ) : null}
      {refund.correlation === "fingerprint" ? (
        <Text as="p" tone="caution">
          Matched by order and amount only: Shopify did not confirm this refund's id when it was issued, so the app adopted the refund with the same amount on
          the order.
        </Text>
      ) : null}
      {refund.shopAmount && refund.shopCurrency && refund.shopCurrency !== refund.currency ? (
        <Text as="p">{`In the shop's currency Shopify recorded ${money(refund.shopAmount, refund.shopCurrency)} ${refund.shopCurrency}.`}</Text>
      ) : null}
      {refund.provisionalVerdict ? (
        <Text as="p" tone="subdued">
          {`The evidence says ${refund.provisionalVerdict}. Final after Shopify's stale read window, at `}
          {at(detail.nextAttemptAt ?? refund.startedAt)}
          {", when the refund is read once more."}
        </Text>
      ) : null}
      {refund.apiVersionsOutside ? (
        <Text as="p" tone="critical">{`Evidence was served by Admin API ${refund.apiVersionsOutside}, which this contract version does not cover.`}</Text>
      ) : null}
      <CheckTimes detail={detail} />
    </SectionCard>
  );
}

/** When the refund was started and decided, and while it is observed, its next check and when the app gives up. */
function CheckTimes({ detail }: { detail: Detail }) {
  const { refund, times } = detail;
  const at = (iso: string) => <Instant iso={iso} times={times} />;
  return (
    <Text as="p" variant="bodySm" tone="subdued">
      {"Started "}
      {at(refund.startedAt)}
      {refund.decidedAt ? (
        <>
          {" · decided "}
          {at(refund.decidedAt)}
        </>
      ) : null}
      {detail.observing && detail.nextAttemptAt ? (
        <>
          {` · next check `}
          {at(detail.nextAttemptAt)}
          {` (attempt ${refund.attempts + 1}); gives up `}
          {at(detail.timeoutAt)}
        </>
      ) : null}
      {detail.timeZone === "UTC" ? " · times in UTC: Shopify did not say the shop's time zone" : null}
    </Text>
  );
}
