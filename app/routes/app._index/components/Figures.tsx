import type { ComponentProps } from "react";
import { Banner, BlockStack, Card, InlineGrid, InlineStack, Link, Text } from "@shopify/polaris";
import { VerdictBadge } from "../../../components/ui";
import { VERDICT_LABELS } from "../../../verdicts/words";
import { FINAL_VERDICTS } from "../../../contracts/schema";
import type { DashboardData } from "../types";

const FIGURES = [...FINAL_VERDICTS, "PENDING" as const].map((status) => ({ status, label: VERDICT_LABELS[status] }));

export function Figures({ figures }: { figures: DashboardData["figures"] }) {
  return (
    <InlineGrid columns={{ xs: 3, md: 6 }} gap={{ xs: "200", md: "300" }}>
      {FIGURES.map(({ status, label }) => (
        <Card key={status}>
          <BlockStack gap="100">
            <InlineStack gap="100" blockAlign="center">
              <VerdictBadge status={status} />
            </InlineStack>
            {/* The number is the table's count for the same dates: it opens that table. */}
            <Link url={figures.links[status]} removeUnderline accessibilityLabel={`${label}: ${figures.counts[status] ?? 0}, show them`}>
              <Text as="p" variant="heading2xl" id={`figure-${status.toLowerCase()}`}>
                {figures.counts[status] ?? 0}
              </Text>
            </Link>
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
  );
}

/**
 * "2 refunds: money not arrived 4 business days after the shop's weekly payout (Fridays)" (or after
 * 7 days, the schedule not known; or waiting for a manual payout, never a warning), the number
 * opening the table of them, as the verdict figures do. Its size never changes with the count: a
 * live refresh never moves the rows below it.
 */
export function MoneyLateFigure({ figures }: { figures: DashboardData["figures"] }) {
  const { count, by, words, link, shown } = figures.moneyLate;
  if (!shown) return null;
  return (
    <CountFigure
      count={count}
      words={`refund${count === 1 ? "" : "s"}: ${words}`}
      link={link}
      id="figure-money-late"
      background={count && by !== "manual" ? "bg-surface-caution" : undefined}
    />
  );
}

type CardBackground = ComponentProps<typeof Card>["background"];

/** A count that opens the table of what it counts, then its words, in a card of its own. */
function CountFigure({ count, words, link, id, background }: { count: number; words: string; link: string; id: string; background?: CardBackground }) {
  return (
    <Card background={background}>
      <Text as="p">
        <Link url={link} removeUnderline accessibilityLabel={`${count} ${words}, show them`}>
          <Text as="span" variant="headingLg" id={id}>
            {count}
          </Text>
        </Link>
        {` ${words}`}
      </Text>
    </Card>
  );
}

/**
 * "2 refunds: money at risk twice ($140.00)": refunds whose order has an open or lost chargeback,
 * or more back than was paid, now (contract shopify.refund.exposure). Shown only when there are
 * some: a clear shop sees nothing to worry about.
 */
export function AtRiskTwiceFigure({ figures }: { figures: DashboardData["figures"] }) {
  const { count, amounts, link } = figures.atRiskTwice;
  if (!count) return null;
  const words = `refund${count === 1 ? "" : "s"}: money at risk twice${amounts.length ? ` (${amounts.join(", ")})` : ""}`;
  return <CountFigure count={count} words={words} link={link} id="figure-at-risk-twice" background="bg-surface-critical" />;
}

export function OutsideContractBanner({ figures }: { figures: DashboardData["figures"] }) {
  return figures.outsideContractVersions ? (
    <Banner
      tone="warning"
      title={`${figures.outsideContractVersions} refund${figures.outsideContractVersions === 1 ? "'s" : "s'"} evidence came from an Admin API version the contract does not cover`}
    >
      <p>
        Shopify answered with a version outside the contract's list (an old version falls forward to the oldest supported one). Their verdicts are flagged on
        their evidence pages and in the CSV.
      </p>
    </Banner>
  ) : null;
}
