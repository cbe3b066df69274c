// npm run bench -- lock-breakdown — where @orderbot/lock's time goes on distinct keys, against the raw
// SET NX PX + EVALSHA loop of bench:lock:
//
//   1. its own JavaScript per lock+unlock, on an instant Redis that answers at once;
//   2. a ladder from the raw loop to the module, one layer at a time: the two scripts the module
//      sends for a free lock (try, release) called bare (no manager), the same through the module's
//      command runner (timeout, breaker, latency histogram), the module trying once (plus input
//      checks, the lease, its metrics), the module on a kind that waits (the
//      same path while the lock is free); then the bare scripts plus two
//      microseconds of busy JavaScript per lock+unlock, and the bare scripts plus the module's own
//      JavaScript (a lock+unlock on an instant Redis) — what client code costs once real sockets are
//      involved. Interleaved in rounds on one redis-server, with the CPU each side spent per
//      lock+unlock and the socket writes per lock+unlock.
//
// Results: printed, and written to docs/benchmarks.md between the bench:lock-breakdown markers.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { Registry } from "prom-client";
import {
  closedLoop,
  environmentLine,
  formatRate,
  formatTable,
  interleave,
  markdownTable,
  packageVersion,
  startRedisServer,
  writeSection,
} from "@orderbot/testkit";
// The layers below the public API (scripts, key layout, command runner): this benchmark takes the
// module apart, which is why it lives in the package and not with the other benchmarks.
import { newToken } from "../src/core/requests.ts";
import { type LuaScript, runCommand, type ScriptClient, tryScript } from "../src/core/scripts.ts";
import { CircuitBreaker } from "../src/layers/circuit-breaker.ts";
import { lineKeys, releaseScript } from "../src/layers/fair-waiting.ts";
import { lockMetrics } from "../src/layers/metrics.ts";
import {
  connect,
  type Client,
  type Library,
  libraries,
  orderbotLock,
  TTL_MS,
  WAIT_MS,
} from "./clients.ts";
import { javascriptPerOp, instantLockUnlock, instantManager } from "./instant-redis.ts";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
const ROUND_MS = Number(process.env.BENCH_CELL_MS ?? 700);

const module = libraries[0]!;
const raw = libraries.find((library) => library.name.startsWith("raw"))!;

const busyFor = (microseconds: number) => {
  const until = performance.now() + microseconds / 1000;
  while (performance.now() < until);
};

/** How a bare variant sends a script: straight through ioredis, or through the module's command runner. */
type Send = (
  command: "acquire" | "release",
  script: LuaScript,
  keys: string[],
  args: (string | number)[],
) => Promise<unknown>;

/** The module's command runner with its defaults (1 s timeout, breaker after 5 failures) and a latency histogram. */
function runnerSend(redis: ScriptClient): Send {
  const breaker = new CircuitBreaker({ failureThreshold: 5, coolDownMs: 2000 });
  const metrics = lockMetrics(new Registry())(undefined as never).forKind("bench");
  return async (command, script, keys, args) => {
    if (!breaker.allow()) throw new Error("breaker open");
    const started = performance.now();
    try {
      const reply = await runCommand(command, "bench", () => script.run(redis, keys, args), 1000);
      breaker.answered(true);
      return reply;
    } finally {
      metrics.command(command, (performance.now() - started) / 1000);
    }
  };
}

/**
 * The module's scripts for a free lock (the try and the release), with the module's arguments,
 * called straight through ioredis (or, `throughRunner`, through the module's command runner); with
 * `busyUs` of busy JavaScript added, or (`withInstant`) a lock+unlock of the module on an instant Redis.
 */
function bareScripts(busyUs: number, { withInstant = false, throughRunner = false } = {}): Library {
  const name = withInstant
    ? "bare scripts + the module's JavaScript (on an instant Redis)"
    : throughRunner
      ? "its two scripts through its command runner"
      : busyUs === 0
        ? "its two scripts, bare"
        : `bare scripts + ${busyUs} µs of JavaScript`;
  return {
    name,
    async client(url): Promise<Client> {
      const redis = await connect(url);
      for (const script of [tryScript, releaseScript]) await redis.script("LOAD", script.source);
      const instant = withInstant ? instantManager(WAIT_MS) : undefined;
      const send: Send = throughRunner
        ? runnerSend(redis)
        : (_command, script, keys, args) => script.run(redis, keys, args); // scripts loaded in client()
      return {
        async lock(key) {
          const keys = lineKeys(`{bench:lock:bench:${key}}`);
          const token = newToken();
          busyFor(busyUs / 2);
          if (instant) await instantLockUnlock(instant, key);
          await send("acquire", tryScript, keys.slice(0, 2), [token, TTL_MS, 3_600_000]);
          return async () => {
            busyFor(busyUs / 2);
            return send("release", releaseScript, keys, [token, "bench:inbox:", 3_600_000]);
          };
        },
        async close() {
          redis.disconnect();
        },
      };
    },
  };
}

/** The module on a kind that tries once (waitMs 0): no waiter is registered. */
const moduleTryingOnce = orderbotLock("the module, trying once (waitMs 0)", 0);

interface Tally {
  ops: number;
  ms: number;
  nodeUs: number;
  redisUs: number;
  writes: number;
}

const redisCpuSeconds = async (url: string) => {
  const redis = await connect(url);
  try {
    const info = await redis.info("cpu");
    const field = (name: string) => Number(new RegExp(`${name}:([\\d.]+)`).exec(info)?.[1] ?? 0);
    return field("used_cpu_user") + field("used_cpu_sys");
  } finally {
    redis.disconnect();
  }
};

/** Write system calls of this process so far (Linux), or NaN elsewhere. */
const writeCalls = () =>
  existsSync("/proc/self/io")
    ? Number(/syscw: (\d+)/.exec(readFileSync("/proc/self/io", "utf8"))?.[1])
    : NaN;

async function interleaved(
  url: string,
  clients: number,
  variants: Library[],
): Promise<Map<string, Tally>> {
  const sets = new Map<Library, Client[]>();
  for (const variant of variants) {
    sets.set(
      variant,
      await Promise.all(Array.from({ length: clients }, () => variant.client(url))),
    );
  }
  const tallies = new Map(
    variants.map((v) => [v.name, { ops: 0, ms: 0, nodeUs: 0, redisUs: 0, writes: 0 }]),
  );
  const cell = async (variant: Library, ms: number, record: boolean) => {
    let ops = 0;
    const clientsOf = sets.get(variant)!;
    const [redis0, cpu0, writes0, started] = [
      await redisCpuSeconds(url),
      process.cpuUsage(),
      writeCalls(),
      performance.now(),
    ];
    await closedLoop({ clients: clientsOf.length, ms }, async (index, i) => {
      const unlock = await clientsOf[index]!.lock(
        `${variants.indexOf(variant)}:${index}:${i % 256}`,
      );
      await unlock();
      ops += 1;
    });
    const elapsed = performance.now() - started;
    const cpu = process.cpuUsage(cpu0);
    const [redis1, writes1] = [await redisCpuSeconds(url), writeCalls()];
    if (!record) return;
    const tally = tallies.get(variant.name)!;
    tally.ops += ops;
    tally.ms += elapsed;
    tally.nodeUs += cpu.user + cpu.system;
    tally.redisUs += (redis1 - redis0) * 1e6;
    tally.writes += writes1 - writes0;
  };
  try {
    for (const variant of variants) await cell(variant, 300, false);
    await interleave(variants, ROUNDS, (variant) => cell(variant, ROUND_MS, true), {
      rotate: true,
    });
    return tallies;
  } finally {
    for (const clientsOf of sets.values())
      await Promise.all(clientsOf.map((client) => client.close()));
  }
}

async function main(): Promise<void> {
  const js = { waiting: await javascriptPerOp(WAIT_MS), once: await javascriptPerOp(0) };
  console.log(
    `JavaScript per lock+unlock on an instant Redis: ${js.waiting.toFixed(2)} µs (waitMs > 0), ${js.once.toFixed(2)} µs (waitMs 0)`,
  );

  const variants = [
    raw,
    bareScripts(0),
    bareScripts(0, { throughRunner: true }),
    moduleTryingOnce,
    module,
    bareScripts(2),
    bareScripts(0, { withInstant: true }),
  ];
  const server = await startRedisServer();
  const rows: (string | number)[][] = [];
  try {
    for (const clients of [1, 32]) {
      const tallies = await interleaved(server.url, clients, variants);
      const base = tallies.get(raw.name)!;
      for (const variant of variants) {
        const t = tallies.get(variant.name)!;
        const rate = (t.ops / t.ms) * 1000;
        rows.push([
          clients,
          variant === module ? `${module.name} (the module, waiting)` : variant.name,
          formatRate(rate),
          `${(rate / ((base.ops / base.ms) * 1000)).toFixed(2)}x`,
          (t.nodeUs / t.ops).toFixed(1),
          (t.redisUs / t.ops).toFixed(1),
          Number.isNaN(t.writes) ? "-" : (t.writes / t.ops).toFixed(2),
        ]);
        console.log(rows.at(-1)!.join("  "));
      }
    }
  } finally {
    await server.dispose();
  }

  const header = [
    "clients",
    "variant",
    "lock+unlock",
    "vs raw",
    "node µs/op",
    "Redis µs/op",
    "writes/op",
  ];
  console.log(`\n${formatTable(header, rows)}\n`);
  writeSection(
    "lock-breakdown",
    [
      "## Redis locks: where the time goes (`npm run bench -- lock-breakdown`)",
      "",
      environmentLine({
        ioredis: packageVersion("ioredis", path.resolve(import.meta.dirname, "..")),
      }),
      "",
      `The lock's own JavaScript per lock+unlock, on an instant Redis that answers at once (32 callers, each with a manager`,
      `of its own as in bench:lock): **${js.waiting.toFixed(2)} µs** when the kind waits, ${js.once.toFixed(2)} µs when it tries once`,
      "(on a free lock both send the same try script; a kind that waits also checks whether it must join the line).",
      "",
      `Then, on one redis-server, ${ROUNDS} interleaved rounds of ${ROUND_MS} ms per variant on distinct keys: a ladder from the`,
      "raw loop of bench:lock to the module, one layer at a time, named in each row. CPU per lock+unlock of node and of",
      "redis-server (`INFO cpu`); writes: write system calls per lock+unlock (above 2.00: V8's background wake-ups).",
      "",
      markdownTable(header, rows),
    ].join("\n"),
  );
  console.log("wrote the bench:lock-breakdown section of docs/benchmarks.md");
}

await main();
