// Where PostgreSQL's time for one database goes, statement by statement, from pg_stat_statements
// (scripts/services preloads it when the server has it): calls and execution time per normalised
// statement, top-level only. A COMMIT's time includes what runs inside it, deferred triggers
// included. Execution time is wall time inside the executor, a lock wait included, so it is read
// beside the backends' CPU (pg-backends.ts), not instead of it.
import type pg from "pg";

export interface StatementTimes {
  /** Normalised statement text → calls and milliseconds of execution. */
  byQuery: Map<string, { calls: number; ms: number }>;
}

export const emptyStatementTimes = (): StatementTimes => ({ byQuery: new Map() });

/** Creates the extension's view in this database; false when the server has not loaded it. */
export async function enableStatementTimes(admin: pg.Client): Promise<boolean> {
  const { rows } = await admin.query<{ v: string }>(
    "SELECT current_setting('shared_preload_libraries') AS v",
  );
  if (!(rows[0]?.v ?? "").includes("pg_stat_statements")) return false;
  await admin.query("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
  return true;
}

/** Forgets this database's statements: the next reading covers what runs from now on. */
export async function resetStatementTimes(admin: pg.Client): Promise<void> {
  await admin.query(
    "SELECT pg_stat_statements_reset(0, (SELECT oid FROM pg_database WHERE datname = current_database()), 0)",
  );
}

/** Adds this database's statements since the last reset into `into` (the admin's own left out). */
export async function addStatementTimes(admin: pg.Client, into: StatementTimes): Promise<void> {
  const { rows } = await admin.query<{ query: string; calls: string; ms: number }>(
    `SELECT s.query, s.calls, s.total_exec_time AS ms
       FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid
      WHERE d.datname = current_database() AND s.toplevel
        AND s.query NOT LIKE '%pg_stat_statements%' AND s.query NOT LIKE '%pg_stat_activity%'`,
  );
  for (const row of rows) {
    const query = row.query.replace(/\s+/g, " ").trim();
    const seen = into.byQuery.get(query) ?? { calls: 0, ms: 0 };
    seen.calls += Number(row.calls);
    seen.ms += row.ms;
    into.byQuery.set(query, seen);
  }
}
