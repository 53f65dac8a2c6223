import { z, type ZodTypeAny } from "zod";
import { fieldErrors, type Fields } from "./field-errors";

/** A body that is no form (or none): the whole form's words. */
export const FORM_UNREADABLE = "The form could not be read. Reload the page and try again.";
/** The record changed since the page showed it (its revision moved on): the page, not the person, is behind. */
export const STALE_PAGE = "This page is out of date. Reload it and try again.";
/** The form itself is older than what it stands for (its one-time token, the limits' revision it was made at). */
export const FORM_EXPIRED = "This form is out of date. Reload the page and try again.";

const MAX_REVISION = 2_147_483_647;

/**
 * The revision of a record the page showed, posted back with the form: a page older than the record
 * is refused with words (STALE_PAGE), never acted on (optimistic concurrency; the one check every
 * screen's form makes of it).
 */
export const shownRevision = z
  .string({ required_error: STALE_PAGE, invalid_type_error: STALE_PAGE })
  .trim()
  .regex(/^\d{1,10}$/, STALE_PAGE)
  .transform(Number)
  .refine((n) => n <= MAX_REVISION, STALE_PAGE);

export type FormRead<Data, Field extends string> = { ok: true; data: Data } | { ok: false; message: string; fieldErrors: Partial<Record<Field, string>> };

/**
 * A posted form through its schema, the one way every screen reads one: the data, or one sentence
 * per field (each field's first issue; an issue about no field under `whole`) with the first of
 * them as the message. A field posted twice counts once, as the page's own form sends it.
 */
export function readForm<Schema extends ZodTypeAny, Whole extends string>(
  form: FormData | null,
  schema: Schema,
  whole: Whole,
): FormRead<z.output<Schema>, Fields<z.input<Schema>> | Whole> {
  type Errors = Partial<Record<Fields<z.input<Schema>> | Whole, string>>;
  if (!form) return { ok: false, message: FORM_UNREADABLE, fieldErrors: { [whole]: FORM_UNREADABLE } as Errors };
  const parsed = schema.safeParse(Object.fromEntries([...form.keys()].map((key) => [key, form.get(key)])));
  if (parsed.success) return { ok: true, data: parsed.data };
  const errors: Errors = fieldErrors(parsed.error as z.ZodError<z.input<Schema>>, whole);
  const first = Object.values(errors).find((message): message is string => typeof message === "string");
  return { ok: false, message: first ?? FORM_UNREADABLE, fieldErrors: errors };
}
