import { createHash } from "node:crypto";
import type { Contract } from "./schema";

/** JSON with object keys sorted at every depth and no whitespace: one text per meaning. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.keys(value)
      .sort()
      .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(",")}}`;
  }
  return JSON.stringify(value);
}

/**
 * sha256 of the canonical JSON of every member except the declared hash itself (a hash cannot
 * cover its own value), first 16 hex digits.
 */
export function computeContractHash(contract: Contract): string {
  const { hash: _declared, ...content } = contract;
  return createHash("sha256").update(canonicalJson(content)).digest("hex").slice(0, 16);
}
