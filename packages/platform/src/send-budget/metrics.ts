import { Counter, Histogram, type Registry } from "prom-client";

export const SEND_BUDGET_METRICS = {
  takes: "orderbot_send_budget_takes_total", // labels priority, outcome
  waitSeconds: "orderbot_send_budget_wait_seconds", // label priority: from asking to taking
  pauses: "orderbot_send_budget_pauses_total", // a 429 paused every sender of the bot
} as const;

export type SendBudgetMetrics = ReturnType<typeof createSendBudgetMetrics>;

/** The budget's metrics on `registry`; a second budget on the same registry shares them. */
export function createSendBudgetMetrics(registry: Registry) {
  const existing = <T>(name: string) => registry.getSingleMetric(name) as T | undefined;
  return {
    takes:
      existing<Counter<"priority" | "outcome">>(SEND_BUDGET_METRICS.takes) ??
      new Counter({
        name: SEND_BUDGET_METRICS.takes,
        help: "Sends asking the shared budget, by priority and outcome (taken, later, unavailable, aborted).",
        labelNames: ["priority", "outcome"],
        registers: [registry],
      }),
    waitSeconds:
      existing<Histogram<"priority">>(SEND_BUDGET_METRICS.waitSeconds) ??
      new Histogram({
        name: SEND_BUDGET_METRICS.waitSeconds,
        help: "Time a send waited for the shared budget before taking it.",
        labelNames: ["priority"],
        buckets: [0.005, 0.05, 0.25, 1, 5, 30, 120],
        registers: [registry],
      }),
    pauses:
      existing<Counter>(SEND_BUDGET_METRICS.pauses) ??
      new Counter({
        name: SEND_BUDGET_METRICS.pauses,
        help: "429 answers that paused every sender of the bot for their retry_after.",
        registers: [registry],
      }),
  };
}
