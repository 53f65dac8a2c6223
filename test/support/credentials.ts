/** The app credentials the tests and the demo run with; the fake Shopify knows them as the real one knows yours. */
export const TEST_APP = {
  apiKey: "test-refund-verifier-key",
  secret: "test-refund-verifier-secret",
  scopes: "read_orders,write_orders",
  /** SESSION_SECRET_KEY: seals the shops' tokens in the app's database (required in production). */
  sessionSecretKey: "5e".repeat(32),
};
