import refundCreated100 from "../../contracts/shopify.refund.created@1.0.0.json";
import refundCreated110 from "../../contracts/shopify.refund.created@1.1.0.json";
import refundCreated120 from "../../contracts/shopify.refund.created@1.2.0.json";
import refundCreated130 from "../../contracts/shopify.refund.created@1.3.0.json";
import refundHistory100 from "../../contracts/shopify.refund.history@1.0.0.json";
import refundHistory110 from "../../contracts/shopify.refund.history@1.1.0.json";
import refundSettled100 from "../../contracts/shopify.refund.settled@1.0.0.json";
import refundSettled110 from "../../contracts/shopify.refund.settled@1.1.0.json";
import refundExposure100 from "../../contracts/shopify.refund.exposure@1.0.0.json";
import { loadContract, type LoadedContract } from "./load";
import type { Contract } from "./schema";

// Validated once at start-up: an invalid contract stops the server, not a verdict.
export const REFUND_CREATED_1_0_0: LoadedContract = loadContract(refundCreated100);
export const REFUND_CREATED_1_1_0: LoadedContract = loadContract(refundCreated110);
export const REFUND_CREATED_1_2_0: LoadedContract = loadContract(refundCreated120);
export const REFUND_CREATED_1_3_0: LoadedContract = loadContract(refundCreated130);
export const REFUND_HISTORY_1_0_0: LoadedContract = loadContract(refundHistory100);
export const REFUND_HISTORY_1_1_0: LoadedContract = loadContract(refundHistory110);
export const REFUND_SETTLED_1_0_0: LoadedContract = loadContract(refundSettled100);
export const REFUND_SETTLED_1_1_0: LoadedContract = loadContract(refundSettled110);
export const REFUND_EXPOSURE_1_0_0: LoadedContract = loadContract(refundExposure100);

/** The contract that judges a VERIFIED refund's money at risk twice (decision 028). */
export const REFUND_EXPOSURE: LoadedContract = REFUND_EXPOSURE_1_0_0;

/** The contract that follows a VERIFIED refund's money to the payout (decision 025); 1.1.0 waits out a monthly payout (decision 034). */
export const REFUND_SETTLED: LoadedContract = REFUND_SETTLED_1_1_0;

/** The contract for refunds the shop made before the app watched it, verified from a bulk read of its history. */
export const REFUND_HISTORY: LoadedContract = REFUND_HISTORY_1_1_0;

/** The contract every new operation is opened with observed live (operations keep the version they were opened with). */
export const REFUND_CREATED: LoadedContract = REFUND_CREATED_1_3_0;

/** Every version the app has run, kept so that a stored verdict can be explained by the contract that decided it. */
export const CONTRACT_VERSIONS: ReadonlyMap<string, LoadedContract> = new Map(
  [REFUND_CREATED_1_0_0, REFUND_CREATED_1_1_0, REFUND_CREATED_1_2_0, REFUND_CREATED_1_3_0, REFUND_HISTORY_1_0_0, REFUND_HISTORY_1_1_0, REFUND_SETTLED_1_0_0, REFUND_SETTLED_1_1_0, REFUND_EXPOSURE_1_0_0].map((loaded) => [`${loaded.contract.id}@${loaded.contract.version}`, loaded]),
);

export function contractByVersion(id: string, version: string): LoadedContract | undefined {
  return CONTRACT_VERSIONS.get(`${id}@${version}`);
}

/** The contract an operation was judged by (its reasons' words come from it): the version it was opened with, else `fallback`. */
export function contractOf(fallback: Contract, op: { contractId: string; contractVersion: string }): Contract {
  return contractByVersion(op.contractId, op.contractVersion)?.contract ?? fallback;
}
