import { Counter, Histogram, Registry } from "prom-client";

/** Metric names; dashboards and alert rules use these. */
export const CORE_METRICS = {
  orders: "orderbot_orders_total", // label outcome: placeOrder results
  placeSeconds: "orderbot_place_order_seconds", // histogram, label outcome
  operations: "orderbot_order_operations_total", // labels op, outcome: cancel, check_payable, adjust_stock, ...
  stockConflicts: "orderbot_stock_conflicts_total", // label op: a conditional stock update that lost
  payments: "orderbot_payments_total", // label outcome: captured|rereserved|duplicate|refund_pending
  refunds: "orderbot_refunds_total", // label reason
  expiries: "orderbot_expiries_total", // orders expired by expireDue
  releasedUnits: "orderbot_released_units_total", // label reason: RELEASE|RESTOCK
} as const;

export interface CoreMetrics {
  orders: Counter<"outcome">;
  placeSeconds: Histogram<"outcome">;
  operations: Counter<"op" | "outcome">;
  stockConflicts: Counter<"op">;
  payments: Counter<"outcome">;
  refunds: Counter<"reason">;
  expiries: Counter;
  releasedUnits: Counter<"reason">;
}

/**
 * Registers the core metrics on `registry` (a private one when none is given). Two shops on one
 * registry (tests, the benchmark) share the same metric objects instead of failing to register.
 */
export function createCoreMetrics(registry: Registry = new Registry()): CoreMetrics {
  function counter<L extends string>(
    name: string,
    help: string,
    labelNames: readonly L[],
  ): Counter<L> {
    const existing = registry.getSingleMetric(name);
    if (existing) return existing as Counter<L>;
    return new Counter({ name, help, labelNames, registers: [registry] });
  }
  const existingHistogram = registry.getSingleMetric(CORE_METRICS.placeSeconds) as
    Histogram<"outcome"> | undefined;
  return {
    orders: counter(CORE_METRICS.orders, "placeOrder calls by outcome", ["outcome"]),
    placeSeconds:
      existingHistogram ??
      new Histogram({
        name: CORE_METRICS.placeSeconds,
        help: "placeOrder latency by outcome",
        labelNames: ["outcome"],
        buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
        registers: [registry],
      }),
    operations: counter(
      CORE_METRICS.operations,
      "order, payment, stock and group operations by outcome",
      ["op", "outcome"],
    ),
    stockConflicts: counter(
      CORE_METRICS.stockConflicts,
      "conditional stock or version updates that lost a race",
      ["op"],
    ),
    payments: counter(CORE_METRICS.payments, "successful payments recorded, by outcome", [
      "outcome",
    ]),
    refunds: counter(CORE_METRICS.refunds, "payments put up for refund, by reason", ["reason"]),
    expiries: counter(CORE_METRICS.expiries, "reservations expired by expireDue", []),
    releasedUnits: counter(
      CORE_METRICS.releasedUnits,
      "stock units returned to sale, by ledger reason",
      ["reason"],
    ),
  };
}
