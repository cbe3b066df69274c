// One (scenario, design) cell of the orders bench: its rounds on the shared runner, what its
// orders cost (statements, Redis commands, CPU here and in PostgreSQL), and its summary.
import type pg from "pg";
import type { Redis } from "@orderbot/platform";
import { closedLoop, percentile, Samples } from "@orderbot/testkit";
import { commandStats, deltaOf, redisCommandCounts, sqlCounts } from "../profile/counters.ts";
import { backendCpu, backendCpuDelta } from "../profile/pg-backends.ts";
import {
  addStatementTimes,
  emptyStatementTimes,
  resetStatementTimes,
  type StatementTimes,
} from "../profile/pg-statements.ts";
import type { Design, Instance } from "./designs.ts";

/** What a cell's orders cost, summed over its rounds (warm-ups included), and how many orders. */
export interface Cost {
  orders: number;
  statements: number;
  commits: number;
  redisSent: number;
  redisRan: number;
  nodeCpuMs: number;
  pgCpuMs: number;
}

export interface Cell {
  scenario: string;
  design: Design;
  pickSku: () => string;
  samples: Samples;
  outcomes: Map<string, number>;
  measuredMs: number;
  cost: Cost;
  /** PostgreSQL's execution time per statement (pg_stat_statements), over the measured rounds. */
  statementTimes: StatementTimes;
  prismaShare?: number;
}

export interface CellResult {
  scenario: string;
  design: string;
  ok: number;
  rate: number;
  p50: number;
  p99: number;
  max: number;
  other: string;
  cost: Cost;
  prismaShare: number | undefined;
}

export function newCell(scenario: string, design: Design, pickSku: () => string): Cell {
  return {
    scenario,
    design,
    pickSku,
    samples: new Samples(),
    outcomes: new Map(),
    measuredMs: 0,
    cost: {
      orders: 0,
      statements: 0,
      commits: 0,
      redisSent: 0,
      redisRan: 0,
      nodeCpuMs: 0,
      pgCpuMs: 0,
    },
    statementTimes: emptyStatementTimes(),
  };
}

/** The tuning of one run: concurrent clients, warm-up and measured time per round. */
export interface RoundPlan {
  clients: number;
  warmupMs: number;
  ms: number;
}

let nextUser = 8_000_000_000n;

/**
 * One round of a cell on the shared runner, every order from a new user; records the calls after
 * the warm-up when `record`. Returns the orders completed in the whole round.
 */
export async function runRound(
  instances: Instance[],
  cell: Cell,
  plan: RoundPlan,
  record: boolean,
): Promise<number> {
  let completed = 0;
  const measured = await closedLoop(
    plan,
    async (client) => {
      const instance = instances[client % instances.length]!;
      const result = await cell.design.place(instance, nextUser++, cell.pickSku());
      if (result.status === "ok") completed++;
      return result;
    },
    record
      ? (latency, result) => {
          cell.samples.add(latency);
          cell.outcomes.set(result.status, (cell.outcomes.get(result.status) ?? 0) + 1);
        }
      : undefined,
  );
  if (record) cell.measuredMs += measured;
  return completed;
}

/** A round with its cost measured: statements, Redis commands, CPU here and in PostgreSQL. */
export async function costedRound(
  instances: Instance[],
  cell: Cell,
  plan: RoundPlan,
  admin: { pg: pg.Client; redis: Redis; statementTimes: boolean },
): Promise<void> {
  if (admin.statementTimes) await resetStatementTimes(admin.pg);
  const pgBefore = await backendCpu(admin.pg);
  const ranBefore = await commandStats(admin.redis);
  const sqlBefore = sqlCounts();
  const sentBefore = redisCommandCounts().commands;
  const cpuBefore = process.cpuUsage();
  const orders = await runRound(instances, cell, plan, true);
  const cpu = process.cpuUsage(cpuBefore);
  const sqlAfter = sqlCounts();
  const sent = redisCommandCounts().commands - sentBefore;
  const ran = deltaOf(ranBefore, await commandStats(admin.redis));
  delete ran.info;
  const pgCpu = backendCpuDelta(pgBefore, await backendCpu(admin.pg));
  if (admin.statementTimes) await addStatementTimes(admin.pg, cell.statementTimes);
  const c = cell.cost;
  c.orders += orders;
  c.statements += sqlAfter.statements - sqlBefore.statements;
  c.commits += sqlAfter.commits - sqlBefore.commits;
  c.redisSent += sent;
  c.redisRan += Object.values(ran).reduce((a, b) => a + b, 0);
  c.nodeCpuMs += (cpu.user + cpu.system) / 1000;
  c.pgCpuMs += pgCpu;
}

export function summarise(cell: Cell): CellResult {
  const sorted = cell.samples.sorted();
  const outcomes = new Map(cell.outcomes);
  const ok = outcomes.get("ok") ?? 0;
  outcomes.delete("ok");
  return {
    scenario: cell.scenario,
    design: cell.design.name,
    ok,
    rate: ok / (cell.measuredMs / 1000),
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: percentile(sorted, 100),
    other: [...outcomes].map(([status, n]) => `${status} ${n}`).join(", ") || "none",
    cost: cell.cost,
    prismaShare: cell.prismaShare,
  };
}
