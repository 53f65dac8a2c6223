import { customerSentence, moneyHeadline, payoutNumber, payoutStatusLabel, type MoneyHeadline, type MoneyKnowledge, type SettlementFacts } from "./words";
import { dateTimeFormat } from "../lib/intl/formats";
import { dayIn } from "../lib/time/days";

/** The evidence page's Money section, as the loader sends it (the customer's sentence is added where the shop's time zone is known). */
export interface MoneyView {
  knowledge: MoneyKnowledge;
  headline: MoneyHeadline;
  /** Whether the page shows the section: a refund that is not verified is never followed to the payout. */
  shown: boolean;
  /** Facts of a followed refund; null when it is not followed. */
  followed: {
    /** At the gateway only: the money left through another gateway, with no payout Shopify shows. */
    atGateway: boolean;
    payoutStatus: string | null;
    payoutLabel: string;
    payoutNumber: string;
    /** When the gateway processed the refund: the day the customer is told it was sent. */
    processedAt: string | null;
    references: string[];
  } | null;
  /** The refund's amount as the customer paid it ("€25.00"), for their sentence; null when unknown. */
  amount: string | null;
}

export function moneyView(knowledge: MoneyKnowledge, settlement: SettlementFacts | null, amount: string | null): MoneyView {
  return {
    knowledge,
    headline: moneyHeadline(knowledge),
    shown: knowledge.kind !== "not_verified",
    followed:
      knowledge.kind === "followed" && settlement
        ? {
            atGateway: knowledge.state === "at_gateway",
            payoutStatus: settlement.payoutStatus,
            payoutLabel: payoutStatusLabel(settlement.payoutStatus),
            payoutNumber: payoutNumber(settlement.payoutGid),
            processedAt: settlement.processedAt?.toISOString() ?? null,
            references: knowledge.references,
          }
        : null,
    amount,
  };
}

/** "3 Dec" in the shop's time zone ("3 Dec 2025" for a day of another year than today's there). */
export function sentOn(iso: string, timeZone: string, now: Date): string {
  const instant = new Date(iso);
  const sameYear = dayIn(instant, timeZone).slice(0, 4) === dayIn(now, timeZone).slice(0, 4);
  return dateTimeFormat("en-GB", { timeZone, day: "numeric", month: "short", ...(sameYear ? {} : { year: "numeric" }) }).format(instant);
}

/** The sentence a support agent pastes to the customer, or null when the money has not left (or its amount or day is unknown). */
export function customerSentenceIn(view: MoneyView, timeZone: string, now: Date): string | null {
  if (!view.amount) return null;
  const processedAt = view.followed?.processedAt ?? null;
  return customerSentence(view.knowledge, { amount: view.amount, sentOn: processedAt ? sentOn(processedAt, timeZone, now) : null });
}
