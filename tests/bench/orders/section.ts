// The bench:orders section of docs/benchmarks.md: the run's conditions, its tables and how to
// read them. Written through the shared docs writer.
import { markdownTable } from "@orderbot/testkit";
import type { CellResult } from "./cells.ts";
import { FLOOR, GLOBAL, PROJECT } from "./designs.ts";
import { finder, ratio, type Table } from "./tables.ts";

export interface OrdersRun {
  /** The environment line, PostgreSQL's version, the load before and the calibration. */
  env: string;
  pgVersion: string;
  loadBefore: number;
  roundTrips: string;
  clients: number;
  instances: number;
  poolMax: number;
  rounds: number;
  roundMs: number;
  warmupMs: number;
  profileMs: number;
  spreadSkus: number;
  scenarios: { hot: string; spread: string };
  results: CellResult[];
  tables: { results: Table; cost: Table; statements: Table | null };
  targets: string[];
}

const md = (t: Table) => markdownTable(t.header, t.rows);

export function ordersSection(run: OrdersRun): string {
  const find = finder(run.results);
  const { hot, spread } = run.scenarios;
  const [hotP, hotG] = [find(hot, PROJECT), find(hot, GLOBAL)];
  const [spreadP, spreadG] = [find(spread, PROJECT), find(spread, GLOBAL)];
  const skus = run.spreadSkus.toLocaleString("en-US");
  return `## placeOrder: per-user lock, one global lock and the floor (\`npm run bench -- orders\`)

${run.env}  
PostgreSQL ${run.pgVersion} (the project's local cluster, fsync off), a redis-server of the benchmark's own  
Load average ${run.loadBefore.toFixed(1)} before the run; one client's bare \`SELECT 1\` round trips: ${run.roundTrips} (how fast the
machine was at the time: figures from different runs compare only through this)

${run.clients} concurrent clients over ${run.instances} shop instances (each its own pool of ${run.poolMax} PostgreSQL connections, Redis
connection and lock manager); ${run.rounds} interleaved rounds of ${run.roundMs} ms per cell, each after a ${run.warmupMs} ms warm-up. Every order is one
unit from a new user; "orders" counts reservations a second; latency is one call, waiting included. The designs,
the floor and the stack's floor: "How they measure", above.

${md(run.tables.results)}

Targets (issue #23, the shop's design against the others in this run):

${run.targets.map((t) => `- ${t}`).join("\n")}

The cost of one order, per design (each cell's rounds, warm-ups included, over the orders they completed; Redis
"run" counts the commands inside the lock's scripts; Prisma's share from a ${run.profileMs} ms CPU profile per cell):

${md(run.tables.cost)}

${
  run.tables.statements
    ? `Where the shop's design spends PostgreSQL's time (pg_stat_statements over the measured rounds; a COMMIT's time
includes the deferred trigger that takes the lines' stock):

${md(run.tables.statements)}`
    : "pg_stat_statements is not loaded on this server (scripts/services preloads it when the server has it): no per-statement table."
}

Reading it: the per-user design ran at ${ratio(hotP.rate, hotG.rate)} the global lock's rate on one hot sku${hotP.p99 > hotG.p99 ? ", with a longer tail" : ""}, at ${ratio(spreadP.rate, spreadG.rate)} spread
over ${skus} skus, and hot at ${ratio(hotP.rate, spreadP.rate)} its spread rate; the floor ran at ${ratio(find(hot, FLOOR).rate, hotG.rate)} the global lock's on the hot sku.
Neither lock buys correctness (packages/core/test/orders/concurrency.test.ts, "without any Redis lock").`;
}
