/**
 * Whether a request most likely comes from a phone, for the first render only (the screen's own
 * width decides after hydration): Chromium's `Sec-CH-UA-Mobile: ?1`, or a phone's user agent.
 * Shopify's mobile app shows an embedded app in a web view whose user agent says "Mobile"; tablets
 * (iPad, Android without "Mobile") are wide enough for the wide layout.
 */
export function narrowScreenLikely(headers: Headers): boolean {
  const mobileHint = headers.get("sec-ch-ua-mobile");
  if (mobileHint === "?1") return true;
  if (mobileHint === "?0") return false;
  const agent = headers.get("user-agent") ?? "";
  return !/\biPad\b/.test(agent) && /\b(Mobile|iPhone|iPod)\b/.test(agent);
}
