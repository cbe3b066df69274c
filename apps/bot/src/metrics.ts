import { Counter, Histogram, type Registry } from "prom-client";

export interface BotMetrics {
  updates: Counter<"type" | "outcome">;
  updateSeconds: Histogram<"type">;
}

/** Updates handled, by type and outcome, with their latency. */
export function createBotMetrics(registry: Registry): BotMetrics {
  return {
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
  };
}
