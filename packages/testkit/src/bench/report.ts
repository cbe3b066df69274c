// Shared by every benchmark: percentiles, the printed and Markdown tables, and the headline rows
// each benchmark saves for the suite's summary. The docs writer is docs.ts.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { PROJECT_ROOT } from "../services/env.ts";

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
