// What one unit of work (an update, an order) costs in round trips, counted on the client side:
// every statement a pg client sends (BEGIN and COMMIT included), the transactions it commits
// (a COMMIT, or a statement sent outside BEGIN...COMMIT, which PostgreSQL commits on its own), and
// every command an ioredis connection sends (a script call counts once here; INFO commandstats on
// the server also counts what runs inside it).
import pg from "pg";
import type { Redis } from "@orderbot/platform";

export interface SqlCounts {
  statements: number;
  commits: number;
  /** Statements by what they touch: "BEGIN", "COMMIT", or the first table named after FROM/INTO/UPDATE. */
  byKind: Record<string, number>;
}

const sql: SqlCounts = { statements: 0, commits: 0, byKind: {} };
const inTransaction = new WeakSet<object>();
let sqlInstalled = false;

const TABLE = String.raw`(?:"?public"?\.)?"?([a-z_][a-z0-9_]*)"?`;

/**
 * What a statement is about, for the table: its verb and its table, never its values. A SELECT is
 * named after its outermost FROM (the last one naming a table: subqueries come before it), a
 * WITH after the first table it writes.
 */
export function statementKind(text: string): string {
  const trimmed = text.trim();
  const verb = (/^\w+/.exec(trimmed)?.[0] ?? "?").toUpperCase();
  if (["BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE"].includes(verb)) return verb;
  let table: string | undefined;
  if (verb === "SELECT") {
    const froms = [...trimmed.matchAll(new RegExp(String.raw`\bFROM\s+${TABLE}`, "gi"))];
    table = froms.at(-1)?.[1];
  } else if (verb === "WITH") {
    const write = new RegExp(String.raw`\b(INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+${TABLE}`, "i");
    const match = write.exec(trimmed);
    return match ? `WITH ... ${match[1]!.split(/\s+/)[0]!.toUpperCase()} ${match[2]}` : "WITH";
  } else {
    table = new RegExp(String.raw`\b(?:FROM|INTO|UPDATE)\s+${TABLE}`, "i").exec(trimmed)?.[1];
  }
  return table ? `${verb} ${table}` : verb;
}

/** Counts from now on every statement sent by any pg client of this process. */
export function countSqlStatements(): void {
  if (sqlInstalled) return;
  sqlInstalled = true;
  const prototype = pg.Client.prototype as unknown as {
    query: (this: object, ...args: unknown[]) => unknown;
  };
  const original = prototype.query;
  prototype.query = function (this: object, ...args: unknown[]) {
    const first = args[0];
    const text =
      typeof first === "string"
        ? first
        : typeof first === "object" && first !== null && "text" in first
          ? String((first as { text: unknown }).text)
          : "";
    const kind = statementKind(text);
    sql.statements++;
    sql.byKind[kind] = (sql.byKind[kind] ?? 0) + 1;
    if (kind === "BEGIN") inTransaction.add(this);
    else if (kind === "COMMIT" || kind === "ROLLBACK") {
      if (kind === "COMMIT") sql.commits++;
      inTransaction.delete(this);
    } else if (!inTransaction.has(this)) sql.commits++;
    return original.apply(this, args);
  };
}

export function sqlCounts(): SqlCounts {
  return { statements: sql.statements, commits: sql.commits, byKind: { ...sql.byKind } };
}

export interface RedisCounts {
  commands: number;
  byName: Record<string, number>;
}

const redisCounts: RedisCounts = { commands: 0, byName: {} };
const counted = new WeakSet<object>();

/** Counts every command this connection sends from now on (pipelined ones one by one). */
export function countRedisCommands(redis: Redis): void {
  if (counted.has(redis)) return;
  counted.add(redis);
  const original = redis.sendCommand.bind(redis);
  redis.sendCommand = ((command: { name: string }, ...rest: unknown[]) => {
    redisCounts.commands++;
    redisCounts.byName[command.name] = (redisCounts.byName[command.name] ?? 0) + 1;
    return (original as (...args: unknown[]) => unknown)(command, ...rest);
  }) as typeof redis.sendCommand;
}

export function redisCommandCounts(): RedisCounts {
  return { commands: redisCounts.commands, byName: { ...redisCounts.byName } };
}

/** b - a, key by key. */
export function deltaOf(
  a: Record<string, number>,
  b: Record<string, number>,
): Record<string, number> {
  const out: Record<string, number> = {};
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const d = (b[key] ?? 0) - (a[key] ?? 0);
    if (d !== 0) out[key] = d;
  }
  return out;
}

/** Server-side command counts of a Redis of the benchmark's own (INFO commandstats). */
export async function commandStats(redis: Redis): Promise<Record<string, number>> {
  const info = await redis.info("commandstats");
  const out: Record<string, number> = {};
  for (const line of info.split("\n")) {
    const match = /^cmdstat_([^:]+):calls=(\d+)/.exec(line.trim());
    if (match) out[match[1]!] = Number(match[2]);
  }
  return out;
}
