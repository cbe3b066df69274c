import { describe, expect, it } from "vitest";
import { formatDemoReport } from "../src/report.ts";
import { figures, invariant } from "./support/figures.ts";

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
