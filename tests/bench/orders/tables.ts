// The orders bench's tables and targets, from its cells' results: printed, and written to
// docs/benchmarks.md by section.ts.
import os from "node:os";
import { formatMs, formatRate, type Cell as TableCell } from "@orderbot/testkit";
import type { Cell, CellResult } from "./cells.ts";
import { FLOOR, GLOBAL, PROJECT, STACK_FLOOR } from "./designs.ts";

/** Statements per scenario in the per-statement table; the rest are summed in one row. */
const STATEMENT_ROWS = 6;

export interface Table {
  header: string[];
  rows: TableCell[][];
}

export const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}x`;
const per = (n: number, orders: number, digits = 2) =>
  orders > 0 ? (n / orders).toFixed(digits) : "-";

export function finder(results: CellResult[]) {
  return (scenario: string, design: string) =>
    results.find((b) => b.scenario === scenario && b.design === design)!;
}

export function resultsTable(results: CellResult[]): Table {
  const find = finder(results);
  return {
    header: [
      "scenario",
      "design",
      "orders",
      "p50",
      "p99",
      "max",
      "vs global lock",
      "vs floor",
      "other outcomes",
    ],
    rows: results.map((r) => [
      r.scenario,
      r.design,
      formatRate(r.rate),
      formatMs(r.p50),
      formatMs(r.p99),
      formatMs(r.max),
      ratio(r.rate, find(r.scenario, GLOBAL).rate),
      ratio(r.rate, find(r.scenario, FLOOR).rate),
      r.other,
    ]),
  };
}

export function costTable(results: CellResult[]): Table {
  return {
    header: [
      "scenario",
      "design",
      "SQL statements",
      "commits",
      "Redis sent",
      "Redis ran",
      "CPU node ms",
      "CPU PostgreSQL ms",
      "PostgreSQL share",
      "Prisma share of node",
    ],
    rows: results.map((r) => {
      const c = r.cost;
      return [
        r.scenario,
        r.design,
        per(c.statements, c.orders),
        per(c.commits, c.orders),
        per(c.redisSent, c.orders),
        per(c.redisRan, c.orders),
        per(c.nodeCpuMs, c.orders, 3),
        per(c.pgCpuMs, c.orders, 3),
        c.nodeCpuMs + c.pgCpuMs > 0
          ? `${((100 * c.pgCpuMs) / (c.nodeCpuMs + c.pgCpuMs)).toFixed(0)} %`
          : "-",
        r.prismaShare === undefined ? "-" : `${(100 * r.prismaShare).toFixed(0)} %`,
      ];
    }),
  };
}

/** The shop's design, statement by statement: where its PostgreSQL time goes. */
export function statementTable(cells: Cell[]): Table {
  const header = [
    "scenario",
    "statement (pg_stat_statements, normalised)",
    "calls per order",
    "ms per order",
    "share",
  ];
  const rows = cells
    .filter((cell) => cell.design.name === PROJECT)
    .flatMap((cell) => {
      const orders = cell.cost.orders;
      const all = [...cell.statementTimes.byQuery].sort((a, b) => b[1].ms - a[1].ms);
      const total = all.reduce((sum, [, t]) => sum + t.ms, 0);
      const rest = all.slice(STATEMENT_ROWS);
      const sum = (list: typeof all, key: "calls" | "ms") =>
        list.reduce((s, [, t]) => s + t[key], 0);
      const row = (query: string, calls: number, ms: number) => [
        cell.scenario,
        query.length > 100 ? `${query.slice(0, 97)}...` : query,
        per(calls, orders),
        per(ms, orders, 3),
        total > 0 ? `${((100 * ms) / total).toFixed(0)} %` : "-",
      ];
      const out = all.slice(0, STATEMENT_ROWS).map(([query, t]) => row(query, t.calls, t.ms));
      if (rest.length > 0)
        out.push(row(`(${rest.length} others)`, sum(rest, "calls"), sum(rest, "ms")));
      out.push(row("all statements", sum(all, "calls"), total));
      return out;
    });
  return { header, rows };
}

/** The targets of issue #23 for the shop's design, MET or MISSED in this run. */
export function targets(results: CellResult[], hot: string, spread: string): string[] {
  const find = finder(results);
  const verdict = (ok: boolean) => (ok ? "MET" : "MISSED");
  const [hotP, hotG] = [find(hot, PROJECT), find(hot, GLOBAL)];
  const [spreadP, spreadG] = [find(spread, PROJECT), find(spread, GLOBAL)];
  const [spreadF, spreadS] = [find(spread, FLOOR), find(spread, STACK_FLOOR)];
  // The shop's design is bound by CPU, the global lock by its chain of round trips: what 2x the
  // global lock asks of this machine's cores, at the CPU (node and PostgreSQL) an order cost.
  const cores = os.cpus().length;
  const cpuPerOrder = (r: CellResult) => (r.cost.nodeCpuMs + r.cost.pgCpuMs) / r.cost.orders;
  const cpuBound = (p: CellResult, g: CellResult) => {
    const cpuMs = cpuPerOrder(p);
    const ceiling = (1000 * cores) / cpuMs;
    return (
      `; at ${cpuMs.toFixed(2)} ms of CPU per order ${cores} cores allow ${formatRate(ceiling)}, ` +
      `and 2x the global lock is ${((200 * g.rate) / ceiling).toFixed(0)} % of that`
    );
  };
  return [
    `hot: >= 2x the global lock: ${verdict(hotP.rate >= 2 * hotG.rate)} (${ratio(hotP.rate, hotG.rate)}${cpuBound(hotP, hotG)})`,
    `hot: p99 <= the global lock's: ${verdict(hotP.p99 <= hotG.p99)} (${formatMs(hotP.p99)} vs ${formatMs(hotG.p99)})`,
    `spread: >= 2x the global lock: ${verdict(spreadP.rate >= 2 * spreadG.rate)} (${ratio(spreadP.rate, spreadG.rate)}${cpuBound(spreadP, spreadG)})`,
    `spread: >= 0.5x the floor: ${verdict(spreadP.rate >= 0.5 * spreadF.rate)} (${ratio(spreadP.rate, spreadF.rate)}; ` +
      `the stack's floor, its bound: ${ratio(spreadS.rate, spreadF.rate)}, the shop at ${ratio(spreadP.rate, spreadS.rate)} of it)`,
    `stretch, hot >= 0.8x spread: ${verdict(hotP.rate >= 0.8 * spreadP.rate)} (${ratio(hotP.rate, spreadP.rate)}; ` +
      `an order's CPU, spread over hot: ${ratio(cpuPerOrder(spreadP), cpuPerOrder(hotP))})`,
  ];
}
