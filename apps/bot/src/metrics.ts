import { Counter, Gauge, Histogram, type Registry } from "prom-client";
import { HANDLED_UPDATE_TYPES } from "./updates/schema.ts";

export interface BotMetrics {
  updates: Counter<"type" | "outcome">;
  updateSeconds: Histogram<"type">;
  updatesSkipped: Counter<"kind">;
  updatesParked: Gauge;
  rateLimitFailOpen: Counter;
}

/** Updates handled, by type and outcome, with their latency; updates the poller skipped. */
export function createBotMetrics(registry: Registry): BotMetrics {
  const metrics: BotMetrics = {
    updates: new Counter({
      name: "orderbot_updates_total",
      help: "Telegram updates received, by type and outcome (handled, duplicate, in_progress, limited, ignored, failed)",
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
    // Above 0 for long is an alert (OrderbotUpdatesParked): an update keeps failing.
    updatesParked: new Gauge({
      name: "orderbot_updates_parked",
      help: "Updates the poller parked in parked_updates (they kept failing while later ones waited), not handled yet",
      registers: [registry],
    }),
    // Any increase means limiting was off for a while: Redis refused or missed the count.
    rateLimitFailOpen: new Counter({
      name: "orderbot_rate_limit_fail_open_total",
      help: "Updates let through unlimited because the rate limiter could not count in Redis",
      registers: [registry],
    }),
  };
  // Exported at 0 from the start: increase() then sees the very first skip of a kind.
  for (const kind of HANDLED_UPDATE_TYPES) metrics.updatesSkipped.inc({ kind }, 0);
  return metrics;
}

/** Why a webhook request was refused: no secret header, or one that does not match. */
export type WebhookRejection = "missing" | "wrong";

export const WEBHOOK_METRICS = { rejected: "orderbot_webhook_rejected_total" } as const;

/**
 * Webhook requests refused for their secret, by reason. Telegram always sends the right secret
 * (but for a rotation's short overlap), so a stream of them is someone else posting to the URL
 * (OrderbotWebhookRejections). Reused when a second server shares the registry.
 */

export function webhookRejectedCounter(registry: Registry): Counter<"reason"> {
  const name = WEBHOOK_METRICS.rejected;
  const existing = registry.getSingleMetric(name) as Counter<"reason"> | undefined;
  if (existing) return existing;
  const counter = new Counter({
    name,
    help: "Webhook requests refused with 401 for their secret, by reason (missing, wrong)",
    labelNames: ["reason"],
    registers: [registry],
  });
  // Exported at 0 from the start: increase() then sees the very first rejection.
  for (const reason of ["missing", "wrong"] satisfies WebhookRejection[])
    counter.inc({ reason }, 0);
  return counter;
}
