// The webhook bench's tables, from its targets after the run: the main table, the target line
// against the baseline, where one update's CPU goes, and the counts per update.
import { formatMs, formatRate, percentile, type Cell } from "@orderbot/testkit";
import type { BotTarget, Target } from "./targets.ts";

const TARGET_RATE = 0.7;
const TARGET_P99 = 1.5;

export interface Table {
  header: string[];
  rows: Cell[][];
}

export interface TargetStats {
  t: Target;
  rate: number;
  p50: number;
  p99: number;
}

export function statsOf(t: Target): TargetStats {
  const sorted = t.samples.sorted();
  return {
    t,
    rate: (t.samples.length / t.elapsedMs) * 1000,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
  };
}

const perUpdate = (t: BotTarget, n: number) => (t.handled > 0 ? (n / t.handled).toFixed(2) : "-");

export function failuresOf(t: Target): Record<string, number> {
  return {
    ...t.webhookFailures,
    ...(t.kind === "bot" ? t.apiFailures : {}),
    ...(t.exhausted ? { "user pool exhausted (raise BENCH_POOL_RATE)": 1 } : {}),
  };
}

export function mainTable(stats: TargetStats[]): Table {
  const header = [
    "target",
    "updates/s",
    "p50",
    "p99",
    "CPU per update",
    "SQL statements",
    "commits",
    "Redis commands",
    "failures",
  ];
  const rows: Cell[][] = stats.map(({ t, rate, p50, p99 }) => [
    t.name,
    formatRate(rate),
    formatMs(p50),
    formatMs(p99),
    t.kind === "bot" && t.handled > 0 ? `${(t.cpuMs / t.handled).toFixed(2)} ms` : "-",
    t.kind === "bot" ? perUpdate(t, t.statements) : "-",
    t.kind === "bot" ? perUpdate(t, t.commits) : "-",
    t.kind === "bot" ? perUpdate(t, t.redisCommands) : "-",
    Object.values(failuresOf(t)).reduce((a, b) => a + b, 0),
  ]);
  return { header, rows };
}

/** The project's bot against the baseline, and what the measurement row says. */
export function targetLine(project: TargetStats, plain: TargetStats, measurement: TargetStats) {
  const rateRatio = project.rate / plain.rate;
  const p99Ratio = project.p99 / plain.p99;
  const verdict = (ok: boolean) => (ok ? "MET" : "MISSED");
  return (
    `The project's bot against the baseline: ${rateRatio.toFixed(2)}x its rate, ${p99Ratio.toFixed(2)}x its p99. ` +
    `Target ${TARGET_RATE}x rate: ${verdict(rateRatio >= TARGET_RATE)}; ` +
    `p99 <= ${TARGET_P99}x: ${verdict(p99Ratio <= TARGET_P99)}. ` +
    `Its safety machinery answered in-process (the measurement row): ` +
    `${(measurement.rate / plain.rate).toFixed(2)}x the baseline's rate, ` +
    `${(measurement.p99 / plain.p99).toFixed(2)}x its p99; ` +
    `the machinery costs the bot ${(100 * (1 - project.rate / measurement.rate)).toFixed(0)} % of its rate.`
  );
}

/** Where one update's CPU goes, per bot (the project's first, then the baseline). */
export function profileTable(bots: [BotTarget, BotTarget]): Table {
  const names = [...new Set(bots.flatMap((b) => (b.profile?.shares ?? []).map((s) => s.name)))];
  const header = [
    "where (module of the function on the CPU)",
    ...bots.flatMap((b) => [`${b === bots[0] ? "project" : "baseline"} ms/update`, "share"]),
  ];
  const rows: Cell[][] = names.map((name) => [
    name,
    ...bots.flatMap((b) => {
      const share = b.profile?.shares.find((s) => s.name === name);
      if (!share || !b.profile || b.profile.updates === 0) return ["-", "-"];
      return [(share.ms / b.profile.updates).toFixed(3), `${(share.share * 100).toFixed(1)} %`];
    }),
  ]);
  rows.push([
    "total sampled",
    ...bots.flatMap((b) =>
      b.profile && b.profile.updates > 0
        ? [(b.profile.totalMs / b.profile.updates).toFixed(3), "100 %"]
        : ["-", "-"],
    ),
  ]);
  return { header, rows };
}

/** SQL, Redis and Bot API counts per update; what the server ran is the project's bot's alone. */
export function countsTable(
  bots: [BotTarget, BotTarget],
  serverCommands: Record<string, number>,
): Table {
  const project = bots[0];
  const keys = (pick: (b: BotTarget) => Record<string, number>) =>
    [...new Set(bots.flatMap((b) => Object.keys(pick(b))))].sort();
  const countRow = (label: string, pick: (b: BotTarget) => Record<string, number>, key: string) => [
    label,
    ...bots.map((b) => perUpdate(b, pick(b)[key] ?? 0)),
  ];
  const rows: Cell[][] = [
    ...keys((b) => b.sqlByKind).map((k) => countRow(`SQL: ${k}`, (b) => b.sqlByKind, k)),
    ["SQL statements, all", ...bots.map((b) => perUpdate(b, b.statements))],
    [
      "commits (COMMIT, or a statement outside a transaction)",
      ...bots.map((b) => perUpdate(b, b.commits)),
    ],
    ...keys((b) => b.redisByName).map((k) => countRow(`Redis sent: ${k}`, (b) => b.redisByName, k)),
    ["Redis commands sent, all", ...bots.map((b) => perUpdate(b, b.redisCommands))],
    ...Object.keys(serverCommands)
      .sort()
      .map((k) => [`Redis server ran: ${k}`, perUpdate(project, serverCommands[k]!), "-"]),
    [
      "Redis server ran, all (scripts' own commands included)",
      perUpdate(
        project,
        Object.values(serverCommands).reduce((a, b) => a + b, 0),
      ),
      "-",
    ],
    ["Bot API calls", ...bots.map((b) => perUpdate(b, b.apiCalls))],
  ];
  return { header: ["per update", "project", "baseline"], rows };
}
