import latin from "@fontsource-variable/inter/files/inter-latin-wght-normal.woff2?url";
import latinExtended from "@fontsource-variable/inter/files/inter-latin-ext-wght-normal.woff2?url";

/**
 * Inter, the font of Polaris and Shopify admin, served by the app itself (one variable file per
 * script, fetched only when a page uses its characters) rather than by a stylesheet on Shopify's
 * CDN: that stylesheet blocked the first paint on a phone behind a connection to another origin,
 * and failed offline in the demo. `optional`: a phone that has not got the font within ~100 ms
 * keeps the system font for that page instead of redrawing its text (no shift, no later LCP).
 */
/** The Latin file every page's text needs: preloaded, it travels beside the stylesheet instead of after it. */
export const INTER_LATIN_URL = latin;

export const INTER_FONT_FACES = [
  [
    latin,
    "U+0000-00FF,U+0131,U+0152-0153,U+02BB-02BC,U+02C6,U+02DA,U+02DC,U+0304,U+0308,U+0329,U+2000-206F,U+20AC,U+2122,U+2191,U+2193,U+2212,U+2215,U+FEFF,U+FFFD",
  ],
  [
    latinExtended,
    "U+0100-02BA,U+02BD-02C5,U+02C7-02CC,U+02CE-02D7,U+02DD-02FF,U+0304,U+0308,U+0329,U+1D00-1DBF,U+1E00-1E9F,U+1EF2-1EFF,U+2020,U+20A0-20AB,U+20AD-20C0,U+2113,U+2C60-2C7F,U+A720-A7FF",
  ],
]
  .map(
    ([file, range]) =>
      `@font-face{font-family:"Inter";font-style:normal;font-display:optional;font-weight:100 900;src:url(${file}) format("woff2-variations");unicode-range:${range}}`,
  )
  .join("\n");
