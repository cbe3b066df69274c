// Shared by every benchmark: percentiles, a printed table, and the rewrite of one section of
// docs/benchmarks.md between `<!-- bench:NAME:start -->` and `<!-- bench:NAME:end -->`, stamped
// with the machine, the versions and the date. Other sections of the file are left as they are.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { PROJECT_ROOT } from "../services/env.ts";

export const BENCHMARKS_MD = path.join(PROJECT_ROOT, "docs/benchmarks.md");

/** Value at percentile `p` (0-100) of an ascending-sorted array; NaN when empty. */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
}

/** Latencies collected in a growable typed array (no per-sample objects in the measured loop). */
export class Samples {
  #data = new Float64Array(1 << 16);
  #length = 0;

  add(value: number): void {
    if (this.#length === this.#data.length) {
      const grown = new Float64Array(this.#data.length * 2);
      grown.set(this.#data);
      this.#data = grown;
    }
    this.#data[this.#length++] = value;
  }

  get length(): number {
    return this.#length;
  }

  /** Sorted copy, for percentiles. */
  sorted(): Float64Array {
    return this.#data.slice(0, this.#length).sort();
  }
}

export type Cell = string | number;

/** A plain-text table for the terminal. */
export function formatTable(header: string[], rows: Cell[][]): string {
  const text = [header, ...rows.map((row) => row.map(String))];
  const widths = header.map((_, i) => Math.max(...text.map((row) => (row[i] ?? "").length)));
  const line = (row: string[]) =>
    row
      .map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)))
      .join("  ");
  return [
    line(text[0]!),
    widths.map((w) => "-".repeat(w)).join("  "),
    ...text.slice(1).map(line),
  ].join("\n");
}

/** The same table as Markdown. */
export function markdownTable(header: string[], rows: Cell[][]): string {
  const line = (row: Cell[]) => `| ${row.map(String).join(" | ")} |`;
  return [
    line(header),
    line(header.map((_, i) => (i === 0 ? "---" : "---:"))),
    ...rows.map(line),
  ].join("\n");
}

export function formatRate(perSecond: number): string {
  return `${Math.round(perSecond).toLocaleString("en-US")}/s`;
}

export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return "-";
  return ms < 1 ? `${ms.toFixed(2)} ms` : ms < 10 ? `${ms.toFixed(1)} ms` : `${Math.round(ms)} ms`;
}

/** The version of an installed npm package as seen from `from` (a directory), or "?". */
export function packageVersion(name: string, from = PROJECT_ROOT): string {
  try {
    const require = createRequire(path.join(from, "noop.js"));
    const entry = require.resolve(`${name}/package.json`);
    return (JSON.parse(readFileSync(entry, "utf8")) as { version: string }).version;
  } catch {
    return "?";
  }
}

export function redisServerVersion(): string {
  try {
    return (
      /v=(\S+)/.exec(execFileSync("redis-server", ["--version"], { encoding: "utf8" }))?.[1] ?? "?"
    );
  } catch {
    return "?";
  }
}

/** One line naming the machine, Node, Redis and the given packages, plus the date. */
export function environmentLine(packages: Record<string, string>): string {
  const cpus = os.cpus();
  const pkgs = Object.entries(packages)
    .map(([name, version]) => `${name} ${version}`)
    .join(", ");
  return [
    `Machine: ${cpus[0]?.model.trim() ?? "unknown CPU"}, ${cpus.length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.type()} ${os.release()}`,
    `Node ${process.version}, redis-server ${redisServerVersion()}; ${pkgs}`,
    // Other work on the machine moves every figure: say how busy it was.
    `Run ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC, load average ${os.loadavg()[0]!.toFixed(1)} at the end`,
  ].join("  \n");
}

/**
 * Replaces the section NAME of docs/benchmarks.md (creating the file or appending the section if
 * missing) with `body`.
 */
export function writeSection(name: string, body: string, file = BENCHMARKS_MD): void {
  const start = `<!-- bench:${name}:start -->`;
  const end = `<!-- bench:${name}:end -->`;
  const block = `${start}\n${body.trim()}\n${end}`;
  const current = existsSync(file)
    ? readFileSync(file, "utf8")
    : "# Benchmarks\n\nWritten by the benchmark scripts (`npm run bench -- NAME`); each rewrites only its own section.\n";
  const from = current.indexOf(start);
  const to = current.indexOf(end);
  const next =
    from !== -1 && to > from
      ? current.slice(0, from) + block + current.slice(to + end.length)
      : `${current.trimEnd()}\n\n${block}\n`;
  writeFileSync(file, next);
}

/** One line of the suite's summary table (`npm run bench`). */
export interface SummaryRow {
  scenario: string;
  subject: string;
  rate: number;
  unit: string;
  p50?: number;
  p99?: number;
  /** `rate` divided by the peer's rate, and which peer. */
  ratio?: number;
  ratioAgainst?: string;
}

const SUMMARY_DIR = path.join(PROJECT_ROOT, ".data/bench");

/** Saves a benchmark's headline rows for the suite's summary (`npm run bench`). */
export function recordSummary(name: string, rows: SummaryRow[]): void {
  mkdirSync(SUMMARY_DIR, { recursive: true });
  writeFileSync(path.join(SUMMARY_DIR, `${name}.json`), JSON.stringify(rows, null, 2));
}

/** The headline rows a benchmark saved, or null when it has not run. */
export function readSummary(name: string): SummaryRow[] | null {
  const file = path.join(SUMMARY_DIR, `${name}.json`);
  return existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as SummaryRow[]) : null;
}
