import type {
  DigitalFigures,
  PhysicalFigures,
  FlashSaleStats,
  FulfilCommand,
  InvariantResult,
  LockSummary,
  StockCommand,
} from "@orderbot/testkit";

export interface DemoFigures {
  users: number;
  seconds: number;
  bots: number;
  workers: number;
  products: number;
  unitsOnSale: number;
  /** Orders placed in this run, by status now. */
  orders: Record<string, number>;
  sale: FlashSaleStats;
  restocks: StockCommand[];
  /** The operator's /ship and /deliver commands. */
  fulfilments: FulfilCommand[];
  /** For each order shipped in this run: from its PAID to its SHIPPED timeline entry (ms). */
  paidToShippedMs: number[];
  oversold: number;
  /** The sale's promo code: uses held at the end against its limit, and uses given back. */
  promo?: { code: string; used: number; limit: number; returned: number } | null;
  /** The digital gift card: codes loaded, assigned, seen in buyers' chats, and seen twice. */
  digital?: DigitalFigures;
  /** The shipped tea set: paid physical orders by shipping option. */
  physical?: PhysicalFigures;
  invariants: InvariantResult[];
  locks: LockSummary;
  metricsUrls: { name: string; url: string }[];
  logFiles: string[];
  settledInMs: number;
}

const n = (value: number) => value.toLocaleString("en-US");

/** The value below which `share` of the sorted values lie (nearest rank). */
function quantile(sorted: number[], share: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(share * sorted.length) - 1))]!;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** "median 4.2 s, p90 9.8 s, max 12.0 s over 31 orders", or why there is nothing to say. */
function paidToShipped(ms: number[]): string {
  if (ms.length === 0) return "no order was shipped";
  const sorted = [...ms].sort((a, b) => a - b);
  return (
    `median ${seconds(quantile(sorted, 0.5))}, p90 ${seconds(quantile(sorted, 0.9))}, ` +
    `max ${seconds(sorted.at(-1)!)} over ${sorted.length} order${sorted.length === 1 ? "" : "s"}`
  );
}
const row = (label: string, value: number | string, note = "") =>
  `  ${label.padEnd(12)} ${String(value).padStart(5)}${note ? `   ${note}` : ""}`;

/** The demo's final report, as the README shows it. */
export function formatDemoReport(f: DemoFigures): string {
  const lines = [
    `orderbot demo: ${f.users} users over ${f.seconds} s, ${f.bots} bots + ${f.workers} worker, ${f.unitsOnSale} units on sale across ${f.products} products`,
    "",
    ...orderLines(f),
    "",
    ...goodsLines(f),
    "",
    ...lockLines(f),
    "",
    "where to look next",
    `  metrics  ${f.metricsUrls.map((m) => `${m.name} ${m.url}`).join(", ")}`,
    "           (served while the shop runs: npm run demo -- --keep leaves it up after the report)",
    `  logs     ${f.logFiles.join(", ")}`,
    "  more     npm run chaos -- --quick (the same shop under faults), docs/testing.md, docs/locking.md",
  ];
  return lines.join("\n");
}

/** Orders by final status, what was not placed and why, restocks and fulfilment. */
function orderLines(f: DemoFigures): string[] {
  const o = (status: string) => f.orders[status] ?? 0;
  const placed = Object.values(f.orders).reduce((a, b) => a + b, 0);
  const refused = f.sale.placed;
  const notPlaced =
    f.sale.soldOutOnCard +
    refused["out-of-stock"] +
    refused.unavailable +
    refused.busy +
    refused.limit +
    refused.other;
  const cut = [...f.sale.cutShort].map(([reason, count]) => `${count} × ${reason}`);
  const restocked = f.restocks.filter(
    (c) => c.after !== undefined && c.before !== undefined && c.change.startsWith("+"),
  );
  return [
    `orders by final status (${placed} placed by ${f.sale.done} users)`,
    row("delivered", o("DELIVERED"), "paid, shipped by the operator, then delivered"),
    ...(o("SHIPPED") ? [row("shipped", o("SHIPPED"), "paid and on its way")] : []),
    row("paid", o("PAID") + o("PROCESSING"), "paid, not shipped yet"),
    row("cancelled", o("CANCELLED"), "by the user; stock back on sale at once"),
    row(
      "expired",
      o("EXPIRED"),
      "abandoned; the worker released the stock when the reservation ran out",
    ),
    ...(o("REFUNDED") ? [row("refunded", o("REFUNDED"))] : []),
    ...(o("RESERVED") + o("PAYING") ? [row("still open", o("RESERVED") + o("PAYING"))] : []),
    row(
      "not placed",
      notPlaced,
      `${f.sale.soldOutOnCard} found every product they picked sold out, ${refused["out-of-stock"]} told "not enough in stock" at Checkout, ` +
        `${refused.busy} busy, ${refused.limit} over the open-order limit, ${refused.unavailable} unavailable`,
    ),
    ...(cut.length ? [`  flows cut short: ${cut.join(", ")}`] : []),
    `  operator restocks: ${restocked.length} (+${restocked.reduce((sum, c) => sum + (c.after! - c.before!), 0)} units) from the operator group`,
    `  paid → shipped: ${paidToShipped(f.paidToShippedMs)}; the operator sent ${f.fulfilments.filter((c) => c.step === "ship").length} /ship and ${f.fulfilments.filter((c) => c.step === "deliver").length} /deliver`,
  ];
}

/** Overselling, the promo, digital and physical goods, and the invariants. */
function goodsLines(f: DemoFigures): string[] {
  const failed = f.invariants.filter((i) => !i.ok);
  return [
    `oversold: ${f.oversold}`,
    ...(f.promo
      ? [
          `promo ${f.promo.code}: ${f.promo.used} uses of ${f.promo.limit} (${f.promo.returned} given back by expired or cancelled reservations)`,
        ]
      : []),
    ...(f.digital
      ? [
          `digital codes: ${f.digital.delivered} delivered to ${f.digital.paid} paying shoppers (${f.digital.assigned} assigned of ${f.digital.loaded} loaded), duplicates: ${f.digital.duplicates}`,
        ]
      : []),
    ...(f.physical
      ? [
          `physical orders: ${Object.values(f.physical.byOption).reduce((sum, n) => sum + n, 0)} paid with shipping (${
            Object.entries(f.physical.byOption)
              .map(([option, n]) => `${option}: ${n}`)
              .join(", ") || "none"
          }) for ${f.physical.paid} paying shoppers`,
        ]
      : []),
    failed.length === 0
      ? `invariants: OK (${f.invariants.length} checked)`
      : `invariants: ${failed.length} VIOLATED\n${failed.map((i) => `  FAIL ${i.name}: ${i.examples.join("; ")}`).join("\n")}`,
  ];
}

function lockLines(f: DemoFigures): string[] {
  const kinds = Object.entries(f.locks.byKind)
    .filter(([, k]) => k.attempts > 0)
    .map(([kind, k]) => `${kind} ${n(k.acquired)}/${n(k.attempts)}`)
    .join(" · ");
  return [
    `locks: ${n(f.locks.attempts)} acquisitions, ${(f.locks.successRate * 100).toFixed(1)}% acquired ` +
      `(${n(f.locks.outcomes.busy ?? 0)} busy), p99 wait ${f.locks.p99WaitMs} ms, leases lost ${f.locks.leasesLost}`,
    `  by kind (acquired/attempts): ${kinds}`,
  ];
}
