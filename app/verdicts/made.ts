import { z } from "zod";

/**
 * Where a refund was made and by whom, as Shopify records it (decision 031), not how the app
 * learned of it (Operation.origin). Pure: the facts in, what they say out; the words are
 * `madeInWords` (words.ts).
 *
 * - this_app: issued from this app's refund form (who asked: the record's askedBy), or an
 *   agreement whose app is this app (its API key);
 * - pos: a transaction processed on a Shopify POS device (the payload's device_id, the bulk read's
 *   OrderTransaction.device);
 * - app: the refund's RefundAgreement names another app ("the application that created the agreement");
 * - admin: the agreement names no app, and the payload names the staff member who made it (user_id);
 * - unknown: Shopify does not say (no app, nobody named; or its agreement was not among those read).
 */
export const MADE_IN = ["this_app", "admin", "pos", "app", "unknown"] as const;
export type MadeIn = (typeof MADE_IN)[number];

export interface Made {
  in: MadeIn;
  /** Shopify's user id of who made it (or asked for it in this app); null when Shopify named nobody. */
  staffUserId: string | null;
  /** The other app that made it, by the name Shopify gives it. */
  app: string | null;
}

/** A refund agreement's app ("the application that created the agreement"), as the read-back and the history's bulk read both ask for it. */
export const agreementApp = z.object({ apiKey: z.string(), title: z.string().min(1) });
export type AgreementApp = z.infer<typeof agreementApp>;

/** Order.agreements as the read-back asks for them: a refund's agreement names its refund and its app; other agreements are empty objects. */
const agreementsSchema = z.object({
  nodes: z.array(z.object({ refund: z.object({ id: z.string() }).optional(), app: agreementApp.nullish() })),
});

/**
 * The app of the refund's agreement among the order's agreements read with it: `{ app }` (null: no
 * app made it), or undefined when its agreement was not among them or the answer is not what was
 * asked (parsed here, at the door: an answer that does not parse says nothing).
 */
export function agreementOf(agreements: unknown, refundGid: string): { app: AgreementApp | null } | undefined {
  const parsed = agreementsSchema.safeParse(agreements);
  if (!parsed.success) return undefined;
  const own = parsed.data.nodes.find((node) => node.refund?.id === refundGid);
  return own ? { app: own.app ?? null } : undefined;
}

/** What the app knows of a refund's making, from wherever it learned of it. */
export interface MadeFacts {
  /** This app's API key (its client id): an agreement whose app has it was made here. */
  ownApiKey: string;
  /** Issued from this app's refund form: who asked for it (null on a record from before that was kept). */
  askedInThisApp?: { askedBy: string | null } | null;
  /** The refunds/create payload: the staff member it names (user_id), and whether a POS device processed it. */
  delivery?: { staffUserId: string | null; posDevice: boolean } | null;
  /** A transaction processed on a POS device, as Shopify's read says (the history's bulk read). */
  posDevice?: boolean;
  /** The refund's agreement as read (undefined: not read, or not among those read). */
  agreement?: { app: AgreementApp | null };
}

/**
 * Where Shopify says the refund was made; null when nothing was read yet to say it (no record, no
 * delivery, no agreement): it is said once Shopify's record of the refund is read.
 */
export function madeOf(facts: MadeFacts): Made | null {
  const staff = facts.delivery?.staffUserId ?? null;
  const app = facts.agreement?.app ?? null;
  if (facts.askedInThisApp) return { in: "this_app", staffUserId: facts.askedInThisApp.askedBy, app: null };
  if (app && facts.ownApiKey && app.apiKey === facts.ownApiKey) return { in: "this_app", staffUserId: staff, app: null };
  if (facts.delivery?.posDevice || facts.posDevice) return { in: "pos", staffUserId: staff, app: null };
  if (app) return { in: "app", staffUserId: staff, app: app.title };
  if (facts.agreement) return { in: staff ? "admin" : "unknown", staffUserId: staff, app: null };
  if (facts.delivery) return { in: "unknown", staffUserId: staff, app: null };
  return null;
}

/** A stored madeIn, read at the door: anything else (a value from a later version) is not known. */
export const madeInOf = (stored: string | null): MadeIn | null =>
  stored === null ? null : (MADE_IN as readonly string[]).includes(stored) ? (stored as MadeIn) : "unknown";
