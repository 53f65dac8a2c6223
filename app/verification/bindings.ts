import type { LoadedContract } from "../contracts/load";
import { resolvePath } from "../contracts/paths";
import type { Bindings } from "../contracts/schema";

/** The operation fields the contract's bindings come from. */
export interface OperationFacts {
  refundGid: string;
  orderGid: string;
  amount: string | null;
  currency: string | null;
  startedAt: Date;
  actionResult: unknown;
}

const amountCurrencyPaths = new WeakMap<LoadedContract, string | null>();

/**
 * The currency of the money the contract compares `$input.amount` with: the `currencyCode`
 * beside the `amount` it reads (presentment money in 1.1.0, shop money in 1.0.0).
 */
function amountCurrencyPath(loaded: LoadedContract): string | null {
  if (!amountCurrencyPaths.has(loaded)) {
    const condition = loaded.contract.contradicted_when.find((c) => c.expected === "$input.amount" && c.path.endsWith(".amount"));
    amountCurrencyPaths.set(loaded, condition ? `${condition.path.slice(0, -".amount".length)}.currencyCode` : null);
  }
  return amountCurrencyPaths.get(loaded)!;
}

/**
 * The contract's bindings for an operation. For refunds observed outside the app there is no
 * refundCreate call: the refund's own global id stands for the action's result, and its
 * created_at for the operation start. `$input.amount` is bound only when the money the contract
 * compares it with is in `$input.currency`: an amount compared across two currencies would be a
 * false contradiction, so it stays unknown (1.1.0 reports the currency itself as
 * refund_currency_mismatch).
 */
export function buildBindings(contract: LoadedContract, operation: OperationFacts, observed: Record<string, unknown>, now: Date): Bindings {
  const input: Record<string, unknown> = { order_id: operation.orderGid, currency: operation.currency };
  const bindings: Bindings = {
    input,
    action: { result: operation.actionResult ?? { refundCreate: { refund: { id: operation.refundGid }, userErrors: [] } } },
    operation: { created_at: operation.startedAt.toISOString() },
    observed,
    now: now.toISOString(),
  };
  const currencyPath = amountCurrencyPath(contract);
  const compared = currencyPath ? resolvePath(bindings, currencyPath) : undefined;
  const comparedCurrency = compared?.found && typeof compared.value === "string" ? compared.value : undefined;
  if (operation.amount !== null && (!operation.currency || !comparedCurrency || operation.currency === comparedCurrency)) input.amount = operation.amount;
  return bindings;
}
