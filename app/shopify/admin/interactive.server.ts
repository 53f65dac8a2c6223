import { ShopifyGateway } from "./gateway.server";
import { offlineGraphql } from "./offline-client.server";

let interactive: ShopifyGateway | undefined;

/** For requests a person is waiting on (the refund form, a screen's shop profile): this process's gateway, with its own view of each shop's bucket. */
export function interactiveGateway(): ShopifyGateway {
  interactive ??= new ShopifyGateway(offlineGraphql);
  return interactive;
}
