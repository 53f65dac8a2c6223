import db from "../../db.server";
import { ShopifyGateway } from "./gateway.server";
import { offlineGraphql } from "./offline-client.server";
import { databaseBuckets } from "./shared-bucket.server";

let interactive: ShopifyGateway | undefined;

/** For requests a person is waiting on (the refund form, a screen's shop profile): the shop's bucket shared with the workers. */
export function interactiveGateway(): ShopifyGateway {
  interactive ??= ShopifyGateway.sharing(offlineGraphql, databaseBuckets(db));
  return interactive;
}
