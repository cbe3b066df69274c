import { describe, expect, it } from "vitest";
import { formatDemoReport, type DemoFigures } from "../src/report.ts";

const invariant = (name: string, ok = true) => ({
  name,
  ok,
  violations: ok ? 0 : 1,
  examples: ok ? [] : ["CHAOS-TEA: stock -1, ledger -1"],
});

const command = (change: string, before: number, after: number) => ({
  updateId: 0,
  messageId: 1,
  sku: "TEA",
  change,
  delivered: true,
  before,
  after,
  replies: [`TEA: stock ${before} → ${after}.`],
});

function figures(overrides: Partial<DemoFigures> = {}): DemoFigures {
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

describe("the demo's report", () => {
  it("says so when no order was shipped", () => {
    expect(formatDemoReport(figures({ paidToShippedMs: [], fulfilments: [] }))).toContain(
      "paid → shipped: no order was shipped; the operator sent 0 /ship and 0 /deliver",
    );
  });

  it("counts orders by final status, the restocks that added units and the locks by kind", () => {
    const report = formatDemoReport(figures());
    expect(report).toContain("orders by final status (6 placed by 10 users)");
    expect(report).toContain(
      "\n  delivered        2   paid, shipped by the operator, then delivered\n",
    );
    expect(report).toContain("\n  paid             1   paid, not shipped yet\n");
    expect(report).not.toContain("  shipped ");
    expect(report).toContain(
      'not placed       4   3 found every product they picked sold out, 1 told "not enough',
    );
    expect(report).toContain(
      "paid → shipped: median 3.0 s, p90 9.0 s, max 9.0 s over 3 orders; the operator sent 2 /ship and 1 /deliver",
    );
    expect(report).toContain("operator restocks: 1 (+2 units)");
    expect(report).toContain("invariants: OK (2 checked)");
    expect(report).toContain("by kind (acquired/attempts): checkout 6/6\n");
  });

  it("names each invariant that failed, with its examples", () => {
    const report = formatDemoReport(
      figures({ invariants: [invariant("ledger", false), invariant("oversold")] }),
    );
    expect(report).toContain(
      "invariants: 1 VIOLATED\n  FAIL ledger: CHAOS-TEA: stock -1, ledger -1",
    );
    expect(report).not.toContain("invariants: OK");
  });
});
