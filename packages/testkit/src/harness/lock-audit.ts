import { createHmac } from "node:crypto";
import { existsSync } from "node:fs";
import { readdir, readFile, rename } from "node:fs/promises";
import path from "node:path";
import type { Database } from "@orderbot/db";
import type { InvariantResult } from "./invariants.ts";

/**
 * "No order is created without a lock", checked from Redis's own append-only file: every lock the
 * lock module takes is a `SET key token [NX] PX ttl` inside its scripts, which Redis writes to the
 * AOF with an absolute `PXAT <ms>` (extensions as `PEXPIREAT`). Nothing in the apps is
 * changed for this: a Redis started with `auditRedisArgs(dir)` records every acquisition, and each
 * order's creation time (PostgreSQL `now()` at its transaction start, same clock) must fall inside a
 * checkout lease of its user.
 */
export function auditRedisArgs(dir: string): string[] {
  // appendfsync no: Redis still write()s the AOF before it answers, so the file holds every
  // acknowledged write even after kill -9; only a machine crash would lose the tail. No rewrites:
  // a rewrite would compact the history away.
  return [
    "--dir",
    dir,
    "--appendonly",
    "yes",
    "--appendfsync",
    "no",
    "--auto-aof-rewrite-percentage",
    "0",
  ];
}

/** After Redis stopped and before it starts again: keeps this life's AOF and lets the next start empty, as a restart without persistence would. */
export async function archiveAof(dir: string, life: number): Promise<void> {
  const aof = path.join(dir, "appendonlydir");
  if (existsSync(aof)) await rename(aof, path.join(dir, `life-${life}`));
}

/** Mirrors the lock module's key scheme (packages/lock/src/keys.ts): personal ids are an HMAC. */
export function checkoutLockKey(
  namespace: string,
  hashKey: string,
  userId: bigint | number | string,
): string {
  const masked = `h.${createHmac("sha256", hashKey)
    .update(`checkout\0${String(userId)}`)
    .digest("base64url")
    .slice(0, 27)}`;
  return `{${namespace}:lock:checkout:${masked}}`;
}

export interface Lease {
  start: number;
  end: number;
}

/** RESP arrays as Redis writes them to the AOF; a truncated tail (a live file) is ignored. */
export function parseAof(text: string): string[][] {
  const commands: string[][] = [];
  let i = 0;
  const line = () => {
    const end = text.indexOf("\r\n", i);
    if (end < 0) return null;
    const value = text.slice(i, end);
    i = end + 2;
    return value;
  };
  while (i < text.length) {
    const head = line();
    if (head === null || !head.startsWith("*")) break;
    const parts: string[] = [];
    for (let n = Number(head.slice(1)); n > 0; n--) {
      const size = line();
      if (size === null || !size.startsWith("$")) return commands;
      const length = Number(size.slice(1));
      if (i + length + 2 > text.length) return commands;
      parts.push(text.slice(i, i + length));
      i += length + 2;
    }
    commands.push(parts);
  }
  return commands;
}

/** Every lease taken on keys with this prefix, from every archived life and the live AOF. */
export async function readLeases(
  dir: string,
  keyPrefix: string,
  ttlMs: number,
): Promise<Map<string, Lease[]>> {
  const leases = new Map<string, Lease[]>();
  const lives = (await readdir(dir)).filter((d) => d.startsWith("life-") || d === "appendonlydir");
  for (const life of lives) {
    const files = (await readdir(path.join(dir, life)))
      .filter((f) => f.endsWith(".incr.aof"))
      .sort();
    for (const file of files) {
      // latin1 keeps byte offsets equal to string offsets; keys and tokens are ASCII.
      const text = await readFile(path.join(dir, life, file), "latin1");
      for (const [command, key, ...args] of parseAof(text)) {
        if (!key?.startsWith(keyPrefix) || key.endsWith(":fence") || key.endsWith(":queue"))
          continue;
        const name = command?.toUpperCase();
        const list = leases.get(key) ?? [];
        if (name === "SET" && !args[0]?.startsWith("reserved:")) {
          const at = args.findIndex((a) => a.toUpperCase() === "PXAT");
          const end = Number(args[at + 1]);
          if (at >= 0 && Number.isFinite(end)) list.push({ start: end - ttlMs, end });
        } else if (name === "PEXPIREAT" && list.length > 0) {
          list.at(-1)!.end = Math.max(list.at(-1)!.end, Number(args[0]));
        }
        leases.set(key, list);
      }
    }
  }
  return leases;
}

/**
 * Each order was created while its user's checkout lease was held: its creation time lies within
 * one lease of that user's checkout key (± `toleranceMs` for the millisecond rounding of both).
 */
export async function checkOrdersHadLocks(
  db: Database,
  options: {
    aofDir: string;
    namespace: string;
    hashKey: string;
    checkoutTtlMs: number;
    toleranceMs?: number;
  },
): Promise<InvariantResult> {
  const leases = await readLeases(
    options.aofDir,
    `{${options.namespace}:lock:checkout:`,
    options.checkoutTtlMs,
  );
  const tolerance = options.toleranceMs ?? 100;
  const orders = await db.$queryRaw<{ public_id: string; user_id: bigint; created: number }[]>`
    SELECT public_id, user_id, (extract(epoch FROM created_at) * 1000)::float8 AS created FROM orders`;
  const bad = orders.filter((o) => {
    const list = leases.get(checkoutLockKey(options.namespace, options.hashKey, o.user_id)) ?? [];
    return !list.some((l) => l.start - tolerance <= o.created && o.created <= l.end + tolerance);
  });
  return {
    name: "no order was created without its user's checkout lock",
    ok: bad.length === 0,
    violations: bad.length,
    examples: bad
      .slice(0, 5)
      .map(
        (o) =>
          `order ${o.public_id} created at ${new Date(o.created).toISOString()} outside any checkout lease`,
      ),
  };
}
