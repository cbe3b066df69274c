// The suite's one table: the headline rows each benchmark saved, with their ratios against the peers
// run beside them in the same process. Printed, and written to the bench:summary section.
// Every benchmark's latest figures are listed, so that running one (`npm run bench -- lock`) does
// not drop the others from the table: a benchmark that has not run on this machine keeps the rows
// it has in the docs. A benchmark named on the command line must have figures.
import { readFileSync } from "node:fs";
import {
  BENCHMARKS_MD,
  formatMs,
  formatRate,
  formatTable,
  markdownTable,
  readSummary,
  writeSection,
} from "@orderbot/testkit";

const BENCHMARKS = ["lock", "orders", "worker", "webhook"];
const ran = process.argv.slice(2);
const names = [...BENCHMARKS, ...ran.filter((name) => !BENCHMARKS.includes(name))];
const header = ["benchmark", "scenario", "subject", "rate", "p50", "p99", "ratio"];
const rows: (string | number)[][] = [];
const missing: string[] = [];
const documented = readFileSync(BENCHMARKS_MD, "utf8").split("\n");
for (const name of names) {
  const summary = readSummary(name);
  if (!summary) {
    missing.push(name);
    const kept = documented.filter((line) => line.startsWith(`| ${name} | `));
    rows.push(...kept.map((line) => line.slice(2, -2).split(" | ")));
    continue;
  }
  for (const row of summary) {
    rows.push([
      name,
      row.scenario,
      row.subject,
      `${formatRate(row.rate)} ${row.unit.replace(/\/s$/, "")}`.trim(),
      row.p50 === undefined ? "-" : formatMs(row.p50),
      row.p99 === undefined ? "-" : formatMs(row.p99),
      row.ratio === undefined ? "-" : `${row.ratio.toFixed(2)}x vs ${row.ratioAgainst ?? "peer"}`,
    ]);
  }
}
console.log(`\n${formatTable(header, rows)}\n`);
if (missing.length > 0)
  console.log(`not run on this machine (rows kept from the docs): ${missing.join(", ")}`);
writeSection(
  "summary",
  [
    "## Summary (`npm run bench`)",
    "",
    "Headline figures of each benchmark below, with the ratio against the peer it ran beside.",
    "",
    markdownTable(header, rows),
  ].join("\n"),
);
if (missing.some((name) => ran.includes(name))) process.exitCode = 1;
