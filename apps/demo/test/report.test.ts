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
    orders: { PAID: 3, CANCELLED: 1, EXPIRED: 2 },
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
  it("counts orders by outcome, the restocks that added units and the locks by kind", () => {
    const report = formatDemoReport(figures());
    expect(report).toContain("orders by outcome (6 placed by 10 users)");
    expect(report).toContain("\n  paid             3\n");
    expect(report).toContain(
      'not placed       4   3 found their product sold out, 1 told "not enough',
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
