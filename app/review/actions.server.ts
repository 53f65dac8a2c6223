import { z } from "zod";
import { fieldErrors as fieldErrorsOf } from "../lib/forms/field-errors";
import db from "../db.server";
import { httpStatus } from "../lib/http/status";
import { requestRecheck, resolveReview, REVIEW_STATUS } from "./review.server";

const notFound = () => new Response("No such refund in this shop", { status: 404 });

const MAX_REVISION = 2_147_483_647;
const STALE = "This page is out of date. Reload it and try again.";

/** The refund's revision the page showed: a form posted from a page older than the refund is refused with words. */
const shownRevision = z
  .string({ required_error: STALE, invalid_type_error: STALE })
  .trim()
  .regex(/^\d{1,10}$/, STALE)
  .transform(Number)
  .refine((n) => n <= MAX_REVISION, STALE);

/** What the evidence page and the review queue can post: resolve with a note, or re-check, each with the revision shown. */
const refundActionSchema = z.discriminatedUnion(
  "intent",
  [
    z.object({
      intent: z.literal("resolve"),
      revision: shownRevision,
      note: z
        .string({ invalid_type_error: "Write the note as text." })
        .optional()
        .transform((note) => (note ?? "").trim())
        .refine((note) => note.length > 0, "Write a note that says how this refund was resolved.")
        .refine((note) => note.length <= 2000, "The note is longer than 2,000 characters."),
    }),
    z.object({ intent: z.literal("recheck"), revision: shownRevision }),
  ],
  {
    errorMap: (issue, ctx) => (issue.code === z.ZodIssueCode.invalid_union_discriminator ? { message: "Unknown action." } : { message: ctx.defaultError }),
  },
);

export type RefundActionFieldErrors = Partial<Record<"intent" | "revision" | "note", string>>;
export type RefundActionOutcome =
  | { ok: true; status: 200; message: string }
  | {
      ok: false;
      status: 409 | 422;
      message: string;
      fieldErrors?: RefundActionFieldErrors;
      resolvedBy?: string;
      resolvedNote?: string | null;
      resolvedAt?: string;
    };

/** Resolve or re-check one refund. Malformed input is a 422 with words for the field, never an exception. */
export async function refundAction(shop: string, id: string, form: FormData, actor: string, now: Date): Promise<RefundActionOutcome> {
  const parsed = refundActionSchema.safeParse(Object.fromEntries([...form.keys()].map((key) => [key, form.get(key)])));
  if (!parsed.success) {
    const fieldErrors: RefundActionFieldErrors = fieldErrorsOf(parsed.error, "intent");
    return { ok: false, status: 422, message: Object.values(fieldErrors)[0] ?? "The form could not be read. Reload the page and try again.", fieldErrors };
  }
  const input = parsed.data;
  const outcome =
    input.intent === "resolve"
      ? await resolveReview(db, shop, id, input.revision, input.note, actor, now)
      : await requestRecheck(db, shop, id, input.revision, actor, now);
  if (!outcome.ok) {
    if (outcome.code === "NOT_FOUND") throw notFound();
    // Everything the outcome says (a lost race names who won) passes through, with the status its code maps to.
    return { ...outcome, ok: false, status: httpStatus(outcome, REVIEW_STATUS) as 409 | 422 };
  }
  const others = (outcome.resolved ?? 1) - 1;
  return {
    ok: true,
    status: 200,
    message:
      input.intent === "recheck"
        ? "Re-check requested: the worker reads this refund back on its next pass."
        : others > 0
          ? `Resolved, with the ${others === 1 ? "other refund of its duplicate pair" : `other ${others} refunds of its duplicate`}. The note is in the audit trail.`
          : "Resolved. The note is in the audit trail.",
  };
}
