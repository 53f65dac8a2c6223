/**
 * Shopify's OrderTransactionErrorCode values (Admin API 2026-10) in a merchant's words. The list is
 * not closed: Shopify adds codes, and a code this app does not know is shown as the code itself in
 * lower-case words ("NEW_GATEWAY_REASON" → "new gateway reason").
 */
const WORDS: Record<string, string> = {
  AMAZON_PAYMENTS_INVALID_PAYMENT_METHOD: "the Amazon Pay payment method was invalid",
  AMAZON_PAYMENTS_MAX_AMOUNT_CHARGED: "Amazon Pay has already captured the maximum amount",
  AMAZON_PAYMENTS_MAX_AMOUNT_REFUNDED: "Amazon Pay has already refunded the maximum amount",
  AMAZON_PAYMENTS_MAX_AUTHORIZATIONS_CAPTURED: "Amazon Pay has already captured 10 authorizations on this order",
  AMAZON_PAYMENTS_MAX_REFUNDS_PROCESSED: "Amazon Pay has already processed 10 refunds on this order",
  AMAZON_PAYMENTS_ORDER_REFERENCE_CANCELED: "the order was canceled at Amazon Pay",
  AMAZON_PAYMENTS_STALE: "the order was not confirmed at Amazon Pay within three hours",
  AMOUNT_TOO_LARGE: "the amount is more than the gateway allows",
  AMOUNT_TOO_SMALL: "the amount is less than the gateway allows",
  AUTHENTICATION_FAILED: "3D Secure authentication failed",
  AUTHENTICATION_REQUIRED: "the card needs 3D Secure authentication",
  AUTHORIZATION_EXPIRED: "the authorization has expired",
  CALL_ISSUER: "the card issuer declined it; the customer should call their bank",
  CANCELLED_PAYMENT: "the transaction was cancelled",
  CARD_DECLINED: "the card was declined",
  CARD_TESTING: "it was declined as suspected card testing",
  CONFIG_ERROR: "the gateway or the store's payment settings are misconfigured",
  DO_NOT_HONOR: "the card issuer declined it without a reason",
  EXPIRED_CARD: "the card has expired",
  FRAUD_SUSPECTED: "it was declined as suspected fraud",
  GENERIC_ERROR: "the gateway reported an unknown error",
  INCORRECT_ADDRESS: "the address is incorrect",
  INCORRECT_CVC: "the card's security code is incorrect",
  INCORRECT_NUMBER: "the card number is incorrect",
  INCORRECT_PIN: "the PIN is incorrect",
  INCORRECT_ZIP: "the postal code does not match the card",
  INSTRUMENT_DECLINED: "the payment method was declined",
  INSUFFICIENT_FUNDS: "there were not enough funds",
  INVALID_AMOUNT: "the amount is invalid",
  INVALID_COUNTRY: "the payment method is not available in the customer's country",
  INVALID_CURRENCY: "the currency is not supported",
  INVALID_CVC: "the card's security code is in the wrong format",
  INVALID_EXPIRY_DATE: "the card's expiry date is in the wrong format",
  INVALID_NUMBER: "the card number is in the wrong format",
  INVALID_PAYMENT_METHOD: "the payment method is invalid or was not found",
  INVALID_PURCHASE_TYPE: "the payment method does not support refunds of this kind",
  MERCHANT_ACCOUNT_ERROR: "there is a problem with the store's merchant account",
  MERCHANT_RULE: "one of the store's own payment risk rules blocked it",
  PAYMENT_METHOD_UNAVAILABLE: "the payment method is unavailable for the moment",
  PAYMENT_METHOD_UNSUPPORTED: "the payment method is not supported",
  PAYMENT_PROVIDER_ERROR: "the payment provider had an unexpected error",
  PICK_UP_CARD: "the card was reported lost or stolen",
  PROCESSING_ERROR: "the gateway had an error while processing it",
  RETRY_DECLINED: "a retry was declined",
  TEST_MODE_LIVE_CARD: "a real card was used while the gateway was in test mode",
  TRANSACTION_LIMIT_EXCEEDED: "the payment method has reached its limit of transactions",
  UNSUPPORTED_FEATURE: "the gateway does not support a feature this refund needs",
};

/** What went wrong, in words; null when Shopify gave no code. */
export function transactionErrorInWords(code: string | null | undefined): string | null {
  if (!code) return null;
  const known = WORDS[code.toUpperCase()];
  if (known) return known;
  const words = code
    .toLowerCase()
    .replace(/[_\s-]+/g, " ")
    .trim();
  return words ? `the gateway answered "${words}"` : null;
}

const GATEWAYS: Record<string, string> = {
  shopify_payments: "Shopify Payments",
  gift_card: "the gift card",
  manual: "a manual payment",
  paypal: "PayPal",
  bogus: "the test gateway",
};

/** A gateway's handle as a merchant knows it ("shopify_payments" → "Shopify Payments"). */
export function gatewayInWords(gateway: string | null | undefined): string {
  if (!gateway) return "the payment gateway";
  return GATEWAYS[gateway.toLowerCase()] ?? gateway.replace(/_/g, " ");
}
