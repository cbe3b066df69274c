// scripts/lock-hold-times: how long each lock kind is really held, against its TTL. Reads the
// Prometheus text of one or more /metrics endpoints (a running shop's bot and worker, or the demo's
// while it is kept running with --keep), or saved scrapes, sums them, and prints per kind the
// p50/p95/p99 hold time from `orderbot_lock_hold_seconds` (estimated inside the bucket, as
// Prometheus' histogram_quantile does) with a verdict. The TTL is the scrape's
// `orderbot_lock_ttl_seconds`, or LOCK_KINDS' when the scrape has none.
import { readFile } from "node:fs/promises";
import { pathToFileURL } from "node:url";
import { LOCK_KINDS } from "@orderbot/core";

const HOLD = "orderbot_lock_hold_seconds_bucket";
const TTL = "orderbot_lock_ttl_seconds";

export type Verdict = "no data" | "too short" | "ok" | "generous";

export interface KindHoldTimes {
  kind: string;
  samples: number;
  /** Seconds; null without samples. `overflow` when the quantile is past the largest bucket. */
  p50: number | null;
  p95: number | null;
  p99: number | null;
  overflow: boolean;
  ttlSeconds: number | null;
  verdict: Verdict;
}

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of Prometheus text exposition (comments skipped). */
export function parseExposition(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split("\n")) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)/.exec(line.trim());
    if (!match || line.startsWith("#")) continue;
    const labels: Record<string, string> = {};
    for (const m of (match[2] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[m[1]!] = m[2]!;
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

/** histogram_quantile over cumulative buckets (upper bound → count, +Inf included). */
export function quantile(
  q: number,
  buckets: Map<number, number>,
): { value: number; overflow: boolean } | null {
  const bounds = [...buckets.keys()].sort((a, b) => a - b);
  const total = buckets.get(Infinity) ?? 0;
  if (total === 0) return null;
  const rank = q * total;
  let lowerBound = 0;
  let lowerCount = 0;
  for (const bound of bounds) {
    const count = buckets.get(bound)!;
    if (count >= rank) {
      if (bound === Infinity) return { value: lowerBound, overflow: true };
      const inBucket = count - lowerCount;
      const share = inBucket === 0 ? 1 : (rank - lowerCount) / inBucket;
      return { value: lowerBound + (bound - lowerBound) * share, overflow: false };
    }
    lowerBound = bound;
    lowerCount = count;
  }
  return { value: lowerBound, overflow: true };
}

/**
 * The verdict of one kind, by the rule of docs/locking.md ("Choosing a TTL"): the
 * p99 hold must stay within a third of the TTL (the watchdog renews every third, so a holder
 * that pauses past the rest loses the lease); below a thirtieth, a crashed holder's lock waits
 * out far more TTL than the work ever needs.
 */
export function verdictFor(
  p99: number | null,
  overflow: boolean,
  ttlSeconds: number | null,
): Verdict {
  if (p99 === null || ttlSeconds === null) return "no data";
  if (overflow || p99 > ttlSeconds / 3) return "too short";
  if (p99 < ttlSeconds / 30) return "generous";
  return "ok";
}

/** Every kind's hold times from the summed scrapes. */
export function holdTimes(scrapes: string[]): KindHoldTimes[] {
  const buckets = new Map<string, Map<number, number>>();
  const ttls = new Map<string, number>();
  for (const sample of scrapes.flatMap(parseExposition)) {
    const kind = sample.labels.kind;
    if (!kind) continue;
    if (sample.name === HOLD) {
      const le = sample.labels.le === "+Inf" ? Infinity : Number(sample.labels.le);
      const byLe = buckets.get(kind) ?? new Map<number, number>();
      byLe.set(le, (byLe.get(le) ?? 0) + sample.value);
      buckets.set(kind, byLe);
    } else if (sample.name === TTL) {
      ttls.set(kind, Math.max(ttls.get(kind) ?? 0, sample.value));
    }
  }
  const configured = LOCK_KINDS as Record<string, { ttlMs: number }>;
  const kinds = [...new Set([...Object.keys(configured), ...buckets.keys()])].sort();
  return kinds.map((kind) => {
    const byLe = buckets.get(kind) ?? new Map<number, number>();
    const ttlSeconds = ttls.get(kind) ?? (configured[kind] ? configured[kind].ttlMs / 1000 : null);
    const [p50, p95, p99] = [0.5, 0.95, 0.99].map((q) => quantile(q, byLe));
    const overflow = p99?.overflow ?? false;
    return {
      kind,
      samples: byLe.get(Infinity) ?? 0,
      p50: p50?.value ?? null,
      p95: p95?.value ?? null,
      p99: p99?.value ?? null,
      overflow,
      ttlSeconds,
      verdict: verdictFor(p99?.value ?? null, overflow, ttlSeconds),
    };
  });
}

const ms = (seconds: number | null, overflow = false) =>
  seconds === null
    ? "-"
    : `${overflow ? ">=" : ""}${(seconds * 1000).toFixed(seconds < 0.01 ? 2 : 0)} ms`;

/** The table the command prints. */
export function formatHoldTimes(rows: KindHoldTimes[]): string {
  const header = ["kind", "samples", "p50", "p95", "p99", "ttl", "p99/ttl", "verdict"];
  const body = rows.map((r) => [
    r.kind,
    String(r.samples),
    ms(r.p50),
    ms(r.p95),
    ms(r.p99, r.overflow),
    ms(r.ttlSeconds),
    r.p99 === null || r.ttlSeconds === null ? "-" : `${((r.p99 / r.ttlSeconds) * 100).toFixed(1)}%`,
    r.verdict === "too short"
      ? "too short: p99 over a third of the TTL, raise ttlMs"
      : r.verdict === "generous"
        ? "generous: p99 under 1/30 of the TTL, a crashed holder blocks longer than needed"
        : r.verdict,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => row[i]!.length)));
  return [header, ...body]
    .map((row) =>
      row
        .map((cell, i) => cell.padEnd(widths[i]!))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}

async function read(source: string): Promise<string> {
  if (!/^https?:\/\//.test(source)) return readFile(source, "utf8");
  const response = await fetch(source, { signal: AbortSignal.timeout(5_000) });
  if (!response.ok) throw new Error(`${source}: HTTP ${response.status}`);
  return response.text();
}

async function main(sources: string[]): Promise<number> {
  if (sources.length === 0 || sources.includes("--help")) {
    process.stderr.write(
      "usage: scripts/lock-hold-times URL|FILE...  (e.g. http://127.0.0.1:8080/metrics http://127.0.0.1:9464/metrics)\n",
    );
    return sources.includes("--help") ? 0 : 2;
  }
  let scrapes: string[];
  try {
    scrapes = await Promise.all(sources.map(read));
  } catch (error) {
    process.stderr.write(`lock-hold-times: ${(error as Error).message}\n`);
    return 1;
  }
  const rows = holdTimes(scrapes);
  if (rows.every((row) => row.samples === 0)) {
    process.stderr.write(`lock-hold-times: no ${HOLD} samples in ${sources.join(", ")}\n`);
    return 1;
  }
  process.stdout.write(`${formatHoldTimes(rows)}\n`);
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main(process.argv.slice(2));
}
