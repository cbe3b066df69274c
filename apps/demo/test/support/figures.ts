// A demo run's figures for the report's tests: small, fixed, overridable.
import type { DemoFigures } from "../../src/report.ts";

export const invariant = (name: string, ok = true) => ({
  name,
  ok,
  violations: ok ? 0 : 1,
  examples: ok ? [] : ["CHAOS-TEA: stock -1, ledger -1"],
});

export const command = (change: string, before: number, after: number) => ({
  updateId: 0,
  messageId: 1,
  sku: "TEA",
  change,
  delivered: true,
  before,
  after,
  replies: [`TEA: stock ${before} → ${after}.`],
});

export function figures(overrides: Partial<DemoFigures> = {}): DemoFigures {
  return {
    users: 10,
    seconds: 20,
    bots: 2,
    workers: 1,
    products: 2,
    unitsOnSale: 6,
    orders: { PAID: 1, DELIVERED: 2, CANCELLED: 1, EXPIRED: 2 },
    sale: {
      started: 10,
      done: 10,
      placed: { placed: 6, "out-of-stock": 1, unavailable: 0, busy: 0, limit: 0, other: 0 },
      intents: { pay: 5, cancel: 2, abandon: 3 },
      paid: 3,
      payRefused: 0,
      cancelled: 1,
      soldOutOnCard: 3,
      cutShort: new Map(),
    },
    restocks: [
      { ...command("=3", 0, 3), updateId: 1 },
      { ...command("+2", 1, 3), updateId: 2 },
    ],
    fulfilments: [
      { orderId: "A1B2C3D4", step: "ship", delivered: true, moved: true, replies: [] },
      { orderId: "A1B2C3D4", step: "deliver", delivered: true, moved: true, replies: [] },
      { orderId: "E5F6G7H8", step: "ship", delivered: true, moved: true, replies: [] },
    ],
    paidToShippedMs: [9_000, 1_000, 3_000],
    oversold: 0,
    invariants: [invariant("ledger"), invariant("oversold")],
    locks: {
      outcomes: { acquired: 40, busy: 0 },
      attempts: 40,
      successRate: 1,
      waits: 1,
      p99WaitMs: 10,
      leasesLost: 0,
      byKind: { checkout: { acquired: 6, attempts: 6 }, fence: { acquired: 0, attempts: 0 } },
    },
    metricsUrls: [{ name: "bot-1", url: "http://127.0.0.1:1/metrics" }],
    logFiles: [".data/demo/logs/bot-1.log"],
    settledInMs: 1_000,
    ...overrides,
  };
}
