/** What a new shop reads before its first refund: what the app does, each verdict, what happens next. */
export const WHAT_IT_DOES =
  "Refund Verifier checks every refund made in this shop against what Shopify really recorded, and puts every duplicate, wrong amount and gateway failure in front of a person.";

export const VERDICT_MEANINGS: { status: string; meaning: string }[] = [
  { status: "PENDING", meaning: "The refund was seen; the app is still reading it back from Shopify." },
  { status: "VERIFIED", meaning: "Shopify recorded the refund as claimed, for the right order and amount, and its webhook arrived." },
  { status: "CONTRADICTED", meaning: "Shopify's record disagrees: a duplicate refund, a different amount, or the wrong order. It goes to the review queue." },
  {
    status: "FAILED",
    meaning: "The payment gateway refused or failed the refund's transaction: the customer has not been paid back. It goes to the review queue.",
  },
  { status: "UNVERIFIABLE", meaning: "Shopify showed no evidence of the refund within 7 days. It goes to the review queue; a person can ask for a re-check." },
];

/** "15 minutes", or "20 seconds" for the demo's quick sweeps. */
const every = (ms: number) => (ms < 60_000 ? `${Math.round(ms / 1000)} seconds` : `${Math.round(ms / 60_000)} minutes`);
const hours = (ms: number) => Math.round(ms / 3_600_000);

/** The next steps, in words, from the worker's schedule and the shop's sweep state. */
export function nextSteps(sweep: { intervalMs: number; firstLookBackMs: number; lastCompletedAt: string | null; runningSince: string | null }): string[] {
  const history = sweep.lastCompletedAt
    ? `The first check of this shop's history is done: refunds on orders updated in the last ${hours(sweep.firstLookBackMs)} hours were looked for, and none was found.`
    : sweep.runningSince
      ? `The first check of this shop's history is running now: it reads orders updated in the last ${hours(sweep.firstLookBackMs)} hours and checks every refund on them.`
      : `The first check of this shop's history starts within ${every(sweep.intervalMs)}: it reads orders updated in the last ${hours(sweep.firstLookBackMs)} hours and checks every refund on them.`;
  return [
    "Shopify tells the app about every new refund (the refunds/create webhook); each is checked within seconds and shown here.",
    `Every ${every(sweep.intervalMs)} the app sweeps the shop's recent orders for refunds whose webhook was lost.`,
    history,
    "Refunds that need a person wait in the review queue until someone resolves them with a note.",
  ];
}
