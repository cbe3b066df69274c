// Polling mode for a scenario: one more bot process with BOT_MODE=polling deletes the webhook and
// polls the fake Telegram (Telegram allows one poller per token), while the webhook bots stand by.
// Afterwards the poller stops and a webhook bot restarts, which sets the webhook again.
import { setTimeout as sleep } from "node:timers/promises";
import type { AppInstance } from "@orderbot/testkit";
import type { ChaosEnvironment } from "./environment.ts";
import type { Sizes } from "./sizes.ts";

export interface PollingMode {
  bot: AppInstance;
  /** Update ids the poller logged as skipped after its retry window (by design, for non-money updates). */
  skipped(): Set<number>;
  /** Back to webhooks: the poller stops, a webhook bot restarts and sets the webhook. */
  restore(): Promise<void>;
}

export async function startPollingMode(
  env: ChaosEnvironment,
  sizes: Sizes,
  extraEnv: Record<string, string> = {},
): Promise<PollingMode> {
  const kit = env.shop.kit;
  // A webhook bot is ready before its setWebhook: one still starting would take the updates back.
  const webhooksSet = () => kit.callsTo("setWebhook").filter((c) => c.ok).length;
  for (let i = 0; webhooksSet() < env.shop.bots.length && i < 300; i++) await sleep(100);
  const bot = await env.shop.addBot({
    BOT_MODE: "polling",
    POLL_RETRY_MAX_ATTEMPTS: String(sizes.pollRetry.maxAttempts),
    POLL_RETRY_BASE_MS: String(sizes.pollRetry.baseMs),
    POLL_RETRY_MAX_MS: String(sizes.pollRetry.maxMs),
    ...extraEnv,
  });
  for (let i = 0; kit.webhookInfo().url !== "" && i < 100; i++) await sleep(100);
  if (kit.webhookInfo().url !== "") throw new Error("the polling bot did not delete the webhook");
  return {
    bot,
    skipped: () => skippedUpdates(bot.process.output),
    async restore() {
      await bot.process.stop();
      await env.shop.bots[0]!.restart();
      for (let i = 0; kit.webhookInfo().url === "" && i < 100; i++) await sleep(100);
      if (kit.webhookInfo().url === "") throw new Error("no webhook bot set the webhook again");
    },
  };
}

/** The bot logs JSON lines; a skipped update's line carries its updateId. */
function skippedUpdates(lines: readonly string[]): Set<number> {
  const ids = new Set<number>();
  for (const line of lines) {
    if (!line.includes("skipped")) continue;
    try {
      const entry = JSON.parse(line) as { msg?: string; updateId?: unknown };
      if (/skipped/.test(entry.msg ?? "") && typeof entry.updateId === "number")
        ids.add(entry.updateId);
    } catch {
      // not a log line of the bot's own
    }
  }
  return ids;
}
