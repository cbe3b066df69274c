// The root README's sample report is the demo's formatter's output for a run like the one it
// describes (40 users, the demo's 23 invariants): each of its lines, in order.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "@orderbot/testkit";
import { formatDemoReport } from "../src/report.ts";
import { figures, invariant } from "./support/figures.ts";

const SAMPLE_RUN = figures({
  users: 40,
  orders: { DELIVERED: 2, CANCELLED: 5, EXPIRED: 17 },
  sale: { ...figures().sale, started: 40, done: 40 },
  invariants: Array.from({ length: 23 }, (_, i) => invariant(`invariant ${i + 1}`)),
});

/** The README's sample: the code block after "ends with a report like this". */
function readmeSample(): string[] {
  const readme = readFileSync(path.join(PROJECT_ROOT, "README.md"), "utf8");
  const block = /ends with a report like this[\s\S]*?\n```\n([\s\S]*?)```/.exec(readme)?.[1];
  return (block ?? "").split("\n").filter((line) => line !== "");
}

/** The lines of `sample` missing from `report`, or found out of order. */
function notInReport(sample: string[], report: string): string[] {
  const lines = report.split("\n");
  let at = 0;
  return sample.filter((line) => {
    const found = lines.indexOf(line, at);
    if (found === -1) return true;
    at = found + 1;
    return false;
  });
}

describe("the README's sample demo report", () => {
  it("is what the demo's formatter prints for such a run", () => {
    const sample = readmeSample();
    expect(sample.length).toBeGreaterThan(3);
    expect(notInReport(sample, formatDemoReport(SAMPLE_RUN))).toEqual([]);
  });

  it("tells a sample line the formatter would not print, in a fixture", () => {
    const report = formatDemoReport(SAMPLE_RUN);
    expect(notInReport(["invariants: OK (17 checked)"], report)).toHaveLength(1);
    expect(
      notInReport(["oversold: 0", "orders by final status (24 placed by 40 users)"], report),
    ).toHaveLength(1);
  });
});
