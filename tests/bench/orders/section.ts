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
connection and lock manager); ${run.rounds} interleaved rounds of ${run.roundMs} ms per cell, each after a ${run.warmupMs} ms warm-up, all in one run. Every order is one
unit from a new user; "orders" counts reservations completed per second. The two designs run the same transaction
(\`reserveOrder\`: advisory lock per user, the order, its items and ledger rows in one statement, and at COMMIT each
line's conditional decrement by the schema's deferred trigger); only the lock around it differs. The floor is the same
reservation (order, item, ledger row, the trigger's decrement at its commit) as
one function call in autocommit (tests/bench/orders/floor.sql) through a bare \`pg\` pool of the same size per instance:
no lock, no Prisma, no check beyond the database's own. The stack's floor makes the same call through the shop's
Prisma client (\`$queryRaw\`) under the per-user checkout lock: the least any reservation on this project's fixed
stack (Prisma, a Redis lock per user) costs, and so the bound on how near the floor a design of the shop can come.
Latency is one call as the client sees it, waiting included.

${md(run.tables.results)}

Targets (issue #23, the shop's design against the others in this run):

${run.targets.map((t) => `- ${t}`).join("\n")}

The cost of one order, per design (each cell's rounds, warm-ups included, divided by the orders they completed):
SQL statements and commits counted in the pg client (BEGIN and COMMIT are statements; a statement outside a
transaction is a commit of its own); Redis commands sent by the ioredis connections, and run by the server (INFO
commandstats of the bench's own redis-server: the commands inside the lock's scripts included); CPU of this process
(the load loop included) and of the PostgreSQL backends serving the run's database (user + system time from /proc;
statement by statement in the next table); the share of this process's CPU
in Prisma's client (\`@prisma/*\` and the generated client), from a ${run.profileMs} ms phase per cell under node:inspector's CPU
profiler after the measured rounds.

${md(run.tables.cost)}

${
  run.tables.statements
    ? `Where the shop's design spends PostgreSQL's time, statement by statement (pg_stat_statements, top-level statements
of the run's database over the measured rounds; execution time is wall time in the executor, a lock wait included; a
COMMIT's time includes the deferred trigger that takes the order lines' stock):

${md(run.tables.statements)}`
    : "pg_stat_statements is not loaded on this server (scripts/services preloads it when the server has it): no per-statement table."
}

Reading it: with one hot sku every reservation queues on the product's row, which each holds only while its COMMIT
runs (the line's decrement is a deferred trigger): here the per-user design ran at ${ratio(hotP.rate, hotG.rate)} the global lock's rate${hotP.p99 > hotG.p99 ? ", with a longer tail" : ""},
and at ${ratio(hotP.rate, spreadP.rate)} its own rate spread over ${skus} skus, where it ran at ${ratio(spreadP.rate, spreadG.rate)} the global lock's.
A global lock keeps the queue in Redis, but serialises every order with it, hot or not. The floor, one statement per
order, spends a fraction of the CPU: ${ratio(find(hot, FLOOR).rate, hotG.rate)} the global lock's rate on the hot sku, where its many waiters on one row
cost it its tail. Neither lock buys any
correctness: the same transaction keeps stock, ledger, cap and idempotency right on its own (see
packages/core/test/orders/concurrency.test.ts, "without any Redis lock").`;
}
