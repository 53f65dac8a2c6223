import type { ZodError } from "zod";

/** The fields a form's schema reads: every key of its input, in each member of a union. */
export type Fields<Input> = Input extends unknown ? Extract<keyof Input, string> : never;

/**
 * A form's zod error as one sentence per field, the way every screen shows it under the field:
 * each field's first issue (the first part of the issue's path), and an issue about no field under
 * `whole` (the form itself, or the field that stands for it).
 */
export function fieldErrors<Input, Whole extends string>(error: ZodError<Input>, whole: Whole): Partial<Record<Fields<Input> | Whole, string>> {
  const errors: Partial<Record<string, string>> = {};
  for (const issue of error.issues) {
    const field = issue.path.length ? String(issue.path[0]) : whole;
    errors[field] ??= issue.message;
  }
  return errors;
}
