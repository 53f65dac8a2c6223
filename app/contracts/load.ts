import type { ZodIssue } from "zod";
import { computeContractHash } from "./hash";
import { planEvaluation, type EvaluationPlan } from "./plan";
import { bindingsSchema, contractSchema, type Bindings, type Contract } from "./schema";

/** A contract as the engine runs it. Treat it as immutable: `plan` is derived from `contract` once, at load. */
export interface LoadedContract {
  contract: Contract;
  declaredHash: string;
  computedHash: string;
  plan: EvaluationPlan;
}

export class ContractError extends Error {
  constructor(
    message: string,
    readonly problems: string[] = [],
  ) {
    super(problems.length ? `${message}:\n${problems.map((p) => `  - ${p}`).join("\n")}` : message);
    this.name = "ContractError";
  }
}

function memberPath(path: (string | number)[]): string {
  return path.reduce<string>((text, part) => (typeof part === "number" ? `${text}[${part}]` : text ? `${text}.${part}` : part), "");
}

function describe(issues: ZodIssue[]): string[] {
  return issues.map((issue) => `${memberPath(issue.path) || "(top level)"}: ${issue.message}`);
}

function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ContractError(`${what} is not valid JSON: ${(error as Error).message}`);
  }
}

export function loadContract(value: unknown): LoadedContract {
  const parsed = contractSchema.safeParse(value);
  if (!parsed.success) throw new ContractError("invalid contract", describe(parsed.error.issues));
  const contract = parsed.data;
  return { contract, declaredHash: contract.hash, computedHash: computeContractHash(contract), plan: planEvaluation(contract) };
}

export function loadContractText(text: string): LoadedContract {
  return loadContract(parseJson(text, "the contract"));
}

export function parseBindings(value: unknown): Bindings {
  const parsed = bindingsSchema.safeParse(value);
  if (!parsed.success) throw new ContractError("invalid bindings", describe(parsed.error.issues));
  return parsed.data;
}

export function parseBindingsText(text: string): Bindings {
  return parseBindings(parseJson(text, "the bindings"));
}
