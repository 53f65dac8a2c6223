import { z } from "zod";

/**
 * JSON the app stored (a text column, the browser's session storage) is outside data when read
 * back: parsed with the schema of what is written there, never cast. `parseStored` throws an error
 * naming the column (never its value, which may be a customer's); `readStored` is for data a person
 * may have changed or another version left, where nothing is the answer.
 */
export function parseStored<S extends z.ZodTypeAny>(schema: S, text: string, what: string): z.output<S> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error(`${what} is not JSON`);
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issues = parsed.error.issues.slice(0, 3).map((issue) => `${issue.path.length ? issue.path.join(".") : "(the value)"}: ${issue.message}`);
    throw new Error(`${what} does not hold what the app writes there: ${issues.join("; ")}`);
  }
  return parsed.data;
}

/** The stored value, or undefined when it is missing, not JSON or not of the schema. */
export function readStored<S extends z.ZodTypeAny>(schema: S, text: string | null | undefined): z.output<S> | undefined {
  if (!text) return undefined;
  try {
    const parsed = schema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** A list of words: an operation's `reasons` and `classes`. */
export const storedStrings = z.array(z.string());

/** A refund record's `refCaptions`: what each id it names is called (the order's name, "<gateway> payment"). */
export const storedCaptions = z.array(z.object({ id: z.string(), caption: z.string() }));
