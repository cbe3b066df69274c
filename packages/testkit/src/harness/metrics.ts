export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/** Prometheus text exposition → samples (comments and malformed lines skipped). */
export function parseMetrics(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split("\n")) {
    if (line.startsWith("#")) continue;
    const match = LINE.exec(line);
    if (!match) continue;
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? "").matchAll(LABEL)) labels[key!] = value!;
    const value = Number(match[3]);
    if (!Number.isNaN(value)) samples.push({ name: match[1]!, labels, value });
  }
  return samples;
}

/** Scrapes every URL; an unreachable process (killed, paused, restarting) contributes nothing. */
export async function scrapeAll(urls: string[], timeoutMs = 2_000): Promise<Sample[]> {
  const texts = await Promise.all(
    urls.map((url) =>
      fetch(url, { signal: AbortSignal.timeout(timeoutMs) })
        .then((r) => (r.ok ? r.text() : ""))
        .catch(() => ""),
    ),
  );
  return texts.flatMap(parseMetrics);
}

export interface LockSummary {
  /** Acquisitions by outcome, all kinds and processes together. */
  outcomes: Record<string, number>;
  attempts: number;
  /** acquired / attempts (busy, unavailable and aborted count as not acquired). */
  successRate: number;
  /** Acquisitions that took more than 10 ms (a wait for a holder, or a slow Redis). */
  waits: number;
  /** Upper bound of the histogram bucket holding the 99th percentile of wait times (ms). */
  p99WaitMs: number;
  leasesLost: number;
  byKind: Record<string, { acquired: number; attempts: number }>;
}

const sum = (samples: Sample[]) => samples.reduce((total, s) => total + s.value, 0);

/** The lock picture from the lock module's metrics (orderbot_lock_*), summed over processes. */
export function summarizeLocks(samples: Sample[]): LockSummary {
  const acquire = samples.filter((s) => s.name === "orderbot_lock_acquire_total");
  const outcomes: Record<string, number> = {};
  const byKind: LockSummary["byKind"] = {};
  for (const s of acquire) {
    const outcome = s.labels.outcome ?? "unknown";
    const kind = s.labels.kind ?? "unknown";
    outcomes[outcome] = (outcomes[outcome] ?? 0) + s.value;
    const k = (byKind[kind] ??= { acquired: 0, attempts: 0 });
    k.attempts += s.value;
    if (outcome === "acquired") k.acquired += s.value;
  }
  const attempts = sum(acquire);
  const buckets = new Map<number, number>();
  for (const s of samples.filter((x) => x.name === "orderbot_lock_wait_seconds_bucket")) {
    const le = s.labels.le === "+Inf" ? Infinity : Number(s.labels.le);
    buckets.set(le, (buckets.get(le) ?? 0) + s.value);
  }
  const bounds = [...buckets.keys()].sort((a, b) => a - b);
  const total = buckets.get(Infinity) ?? 0;
  const p99 = bounds.find((le) => (buckets.get(le) ?? 0) >= total * 0.99) ?? 0;
  const fast = buckets.get(0.01) ?? 0;
  return {
    outcomes,
    attempts,
    successRate: attempts === 0 ? 1 : (outcomes.acquired ?? 0) / attempts,
    waits: Math.max(0, total - fast),
    p99WaitMs: total === 0 ? 0 : p99 * 1000,
    leasesLost: sum(samples.filter((s) => s.name === "orderbot_lock_lease_lost_total")),
    byKind,
  };
}
