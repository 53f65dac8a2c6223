import { existsSync } from "node:fs";
import { chromium, type Browser, type Frame, type Page } from "playwright-core";
import { waitFor } from "./wait";

const CHROMIUM = "/usr/bin/chromium";

/** Root on a machine with no internet: no sandbox, no GPU, nothing that phones home (the bench's Lighthouse runs use them too). */
export const CHROMIUM_FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** Debian's Chromium, headless, with the flags this machine's closed network needs (never a downloaded browser). */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`Browser tests need Debian's Chromium at ${CHROMIUM}: apt-get install -y chromium`);
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
}

/** The app's frame inside the simulated admin (the admin's own page is the main frame). */
export const appFrameOf = (page: Page): Frame | undefined => page.frames().find((f) => f.parentFrame() === page.mainFrame());

/**
 * React has hydrated the app, so clicks reach it: the app's root marks the page once its first
 * effect has run. `target` is the simulated admin (the app is its frame) or the app's own page.
 * The app paints the server's page before its scripts arrive, so a click before this is lost.
 */
export async function untilHydrated(target: Page | Frame): Promise<void> {
  const app = () => ("mainFrame" in target ? (appFrameOf(target) ?? target.mainFrame()) : target);
  await waitFor("the app to hydrate", () =>
    app()
      .evaluate(() => document.documentElement.dataset.hydrated === "true")
      .catch(() => false),
  );
}

/** The frame's layout has settled (after a resize or a navigation): its size is the same over three animation frames. */
export async function untilLayoutSettled(frame: Frame): Promise<void> {
  await frame.evaluate(
    () =>
      new Promise<void>((resolve) => {
        let last = "";
        let same = 0;
        const look = () => {
          const now = `${document.documentElement.clientWidth}x${document.documentElement.scrollHeight}`;
          same = now === last ? same + 1 : 0;
          last = now;
          if (same >= 3) resolve();
          else requestAnimationFrame(look);
        };
        requestAnimationFrame(look);
      }),
  );
}
