import type { Registry } from "prom-client";
import { createSendBudgetMetrics } from "./metrics.ts";
import type { ScriptClient } from "./script-client.ts";
import { createSendBudget, TELEGRAM_SEND_LIMITS, type SendBudget } from "./send-budget.ts";

export interface SendBudgetConfig {
  BOT_TOKEN: string;
  LOCK_NAMESPACE: string;
  TELEGRAM_SEND_PER_SECOND: number;
  TELEGRAM_CHAT_WINDOW_MS: number;
  GROUP_RATE_WINDOW_MS: number;
}

/**
 * The bot's budget as the bot and the worker both build it: one key space per bot id.
 * `callTimeoutMs`: the process's Bot API call deadline, how long an unanswered call holds its place.
 */
export function sendBudgetFromConfig(
  redis: ScriptClient,
  config: SendBudgetConfig,
  registry: Registry,
  callTimeoutMs: number,
): SendBudget {
  return createSendBudget({
    redis,
    inFlightMs: callTimeoutMs,
    botId: config.BOT_TOKEN.split(":")[0]!,
    prefix: config.LOCK_NAMESPACE,
    limits: {
      ...TELEGRAM_SEND_LIMITS,
      perSecond: config.TELEGRAM_SEND_PER_SECOND,
      chatWindowMs: config.TELEGRAM_CHAT_WINDOW_MS,
      groupWindowMs: config.GROUP_RATE_WINDOW_MS,
    },
    metrics: createSendBudgetMetrics(registry),
  });
}
