import refundCreated from "../../contracts/shopify.refund.created.json";
import { loadContract, type LoadedContract } from "./load";

/** The contracts the app runs, validated once at start-up: an invalid contract stops the server, not a verdict. */
export const REFUND_CREATED: LoadedContract = loadContract(refundCreated);
