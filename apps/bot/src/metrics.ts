import { Counter, Histogram, type Registry } from "prom-client";
import { HANDLED_UPDATE_TYPES } from "./updates/schema.ts";

export interface BotMetrics {
  updates: Counter<"type" | "outcome">;
  updateSeconds: Histogram<"type">;
  updatesSkipped: Counter<"kind">;
}

/** Updates handled, by type and outcome, with their latency; updates the poller skipped. */
export function createBotMetrics(registry: Registry): BotMetrics {
  const metrics: BotMetrics = {
    updates: new Counter({
      name: "orderbot_updates_total",
      help: "Telegram updates received, by type and outcome (handled, duplicate, in_progress, failed, rejected)",
      labelNames: ["type", "outcome"],
      registers: [registry],
    }),
    updateSeconds: new Histogram({
      name: "orderbot_update_duration_seconds",
      help: "Time to handle one Telegram update end to end",
      labelNames: ["type"],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
    // Any increase is an alert (OrderbotUpdatesSkipped): what that update asked for never happened.
    updatesSkipped: new Counter({
      name: "orderbot_updates_skipped_total",
      help: "Updates the poller gave up on after repeated failures, by update type (never a payment)",
      labelNames: ["kind"],
      registers: [registry],
    }),
  };
  // Exported at 0 from the start: increase() then sees the very first skip of a kind.
  for (const kind of HANDLED_UPDATE_TYPES) metrics.updatesSkipped.inc({ kind }, 0);
  return metrics;
}
