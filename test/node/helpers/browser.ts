// The browser the report checks drive: the Chromium the global setup found or installed (scripts/test-prereqs.mjs),
// started the way a closed network needs (no first-run, sync or component traffic to flood it with refusals).
import { chromium, type Browser } from "playwright-core";
import { findBrowser } from "../../../scripts/test-prereqs.mjs";

const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: findBrowser(), args: ARGS });
}
