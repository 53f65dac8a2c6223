import { ShopifyError } from "@shopify/shopify-api";
import { authenticate } from "../shopify.server";

/**
 * authenticate.admin, except that a request the library refuses by throwing (a correctly signed
 * session token whose destination is not a shop: InvalidShopError) is a 401, not a 500.
 */
export async function authenticateAdmin(request: Request): ReturnType<typeof authenticate.admin> {
  try {
    return await authenticate.admin(request);
  } catch (error) {
    if (error instanceof ShopifyError) throw new Response(`Unauthorized: ${error.message}`, { status: 401 });
    throw error;
  }
}
