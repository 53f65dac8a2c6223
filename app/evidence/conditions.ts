import { z } from "zod";
import type { ConditionResult } from "../contracts/evaluate";
import { expectedValue, type Contract } from "../contracts/schema";
import { parseStored } from "../lib/db/stored-json";

export interface ConditionView extends ConditionResult {
  meaning: string;
}

/** One condition of an evaluation's stored result (app/contracts/evaluate.ts, ConditionResult). */
const storedCondition = z.object({
  id: z.string(),
  group: z.enum(["verified", "contradicted", "rule"]),
  status: z.enum(["holds", "fails", "unknown"]),
  path: z.string(),
  operator: z.string(),
  expected: expectedValue,
  expected_value: z.unknown(),
  actual: z.unknown(),
  evidence: z.string(),
});

/** An evaluation's `result` as the evidence page reads it: the engine's explanation and conditions, or what a shop's erasure left. */
const storedEvaluation = z.union([z.object({ redacted: z.literal(true) }), z.object({ explanation: z.string(), conditions: z.array(storedCondition) })]);

/** The latest evaluation's conditions, each with what it means in its contract's words, and the engine's explanation. */
export function conditionsOf(
  contract: Contract,
  latest: { id: string; result: string } | undefined,
): { conditions: ConditionView[]; explanation: string | null } {
  const result = latest ? parseStored(storedEvaluation, latest.result, `Evaluation.result of ${latest.id}`) : undefined;
  if (!result || !("conditions" in result)) return { conditions: [], explanation: null };
  const meanings = new Map<string, string>([
    ...contract.verified_when.map((c) => [c.id, c.meaning] as [string, string]),
    ...contract.contradicted_when.map((c) => [c.id, `${c.reason} (${c.class})`] as [string, string]),
    ...contract.rules.map((r) => [r.id, r.reason] as [string, string]),
  ]);
  return { conditions: result.conditions.map((c) => ({ ...c, actual: c.actual, meaning: meanings.get(c.id) ?? "" })), explanation: result.explanation };
}
