// CPU used by PostgreSQL for one database: the user + system time of the backends connected to
// it, read from /proc/<pid>/stat (the server runs on this machine). The direct figure: parse,
// plan, execute, commit and protocol work alike, and no lock wait. pg-statements.ts breaks the
// execution time down by statement.
import { readFileSync } from "node:fs";
import type pg from "pg";

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

function processCpuMs(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The fields after the command name, which is in parentheses and may hold spaces.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const utime = Number(fields[11]);
    const stime = Number(fields[12]);
    return ((utime + stime) * 1000) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

/** CPU milliseconds so far, per backend of this client's database (this client's own excluded). */
export async function backendCpu(client: pg.Pool | pg.Client): Promise<Map<number, number>> {
  const { rows } = await client.query<{ pid: number }>(
    "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()",
  );
  const out = new Map<number, number>();
  for (const { pid } of rows) {
    const ms = processCpuMs(pid);
    if (ms !== undefined) out.set(pid, ms);
  }
  return out;
}

/** CPU milliseconds the backends used between two readings (a backend new since counts whole). */
export function backendCpuDelta(before: Map<number, number>, after: Map<number, number>): number {
  let total = 0;
  for (const [pid, ms] of after) total += ms - (before.get(pid) ?? 0);
  return total;
}
