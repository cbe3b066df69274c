// Headless Chromium for browser tests: Debian's package (scripts/ensure-tools installs it), driven
// by playwright-core; never a browser download. The flags keep it off the network it cannot reach.
import { existsSync } from "node:fs";
import { chromium, type Browser } from "playwright-core";

export const CHROMIUM = "/usr/bin/chromium";

const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** A new browser with a fresh temporary profile (Playwright's launch makes one). */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM))
    throw new Error(
      `no ${CHROMIUM}: run scripts/ensure-tools (as root) or apt-get install chromium`,
    );
  return chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
}
