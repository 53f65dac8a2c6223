import { describe, expect, it } from "vitest";
import { z } from "zod";
import { fieldErrors } from "../../../app/lib/forms/field-errors";

const form = z
  .object({ amount: z.string().min(1, "Enter the amount.").max(3, "Too long."), note: z.string({ required_error: "Add a note." }) })
  .refine((value) => value.amount !== value.note, "The amount is not a note.");

describe("a form's zod error as words per field", () => {
  it("keeps each field's first message, and puts an issue about no field under the name given for the form", () => {
    const missing = form.safeParse({ amount: "" });
    expect(missing.success || fieldErrors(missing.error, "form")).toEqual({ amount: "Enter the amount.", note: "Add a note." });
    const whole = form.safeParse({ amount: "1", note: "1" });
    expect(whole.success || fieldErrors(whole.error, "form")).toEqual({ form: "The amount is not a note." });
  });

  it("names a member's fields in a discriminated union, and the discriminator's issue under it", () => {
    const action = z.discriminatedUnion("intent", [z.object({ intent: z.literal("a"), x: z.string() }), z.object({ intent: z.literal("b"), y: z.string() })]);
    const unknown = action.safeParse({ intent: "c" });
    expect(unknown.success || Object.keys(fieldErrors(unknown.error, "intent"))).toEqual(["intent"]);
    const b = action.safeParse({ intent: "b" });
    expect(b.success || fieldErrors(b.error, "intent")).toEqual({ y: "Required" });
  });
});
