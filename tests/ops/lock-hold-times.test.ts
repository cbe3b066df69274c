// scripts/lock-hold-times: real holds through a real lock manager, scraped from a real /metrics
// endpoint, come out as the p50/p95/p99 the holds had and the verdict their TTL deserves.
import { spawn } from "node:child_process";
import { createServer, type Server } from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLockManager, fairWaiting, lockMetrics, type LockManager } from "@orderbot/lock";
import {
  createMetricsRegistry,
  createRedis,
  registerLockKindMetrics,
  waitForRedis,
  type Redis,
  type Registry,
} from "@orderbot/platform";
import { createTestRedis, PROJECT_ROOT, type TestRedis } from "@orderbot/testkit";
import { holdTimes, quantile, verdictFor } from "../../scripts/lib/lock-hold-times.ts";

// Holds chosen against each TTL: order over a third of it, update well within, checkout tiny. Each
// sits far from the verdict's bounds (a third and a thirtieth of the TTL), so that holds a busy
// machine stretches (60 ms holds were measured at 250 ms) keep their verdict.
const KINDS = {
  order: { ttlMs: 300, waitMs: 0, outage: "refuse" },
  update: { ttlMs: 9_000, waitMs: 0, outage: "proceed-db-only" },
  checkout: { ttlMs: 60_000, waitMs: 0, outage: "refuse" },
} as const;
const HOLDS_MS = { order: 150, update: 600, checkout: 2 };

let t: TestRedis;
let redis: Redis;
let locks: LockManager;
let registry: Registry;
let server: Server;
let url: string;

beforeAll(async () => {
  t = await createTestRedis();
  redis = createRedis({ url: t.url, commandTimeoutMs: 1_000 });
  await waitForRedis(redis);
  registry = createMetricsRegistry();
  locks = createLockManager({
    redis,
    namespace: t.namespace,
    kinds: KINDS,
    hashKey: "hold-times-key-0123456789",
    layers: { waiting: fairWaiting(), metrics: lockMetrics(registry) },
  });
  registerLockKindMetrics(registry, KINDS);
  for (const [kind, holdMs] of Object.entries(HOLDS_MS)) {
    await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        locks.withLock({ kind, id: `r${i}` }, () => sleep(holdMs), { requestId: "test" }),
      ),
    );
  }
  server = createServer((_, res) => {
    void registry.metrics().then((text) => res.end(text));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/metrics`;
});
afterAll(async () => {
  server?.close();
  await locks?.close();
  redis?.disconnect();
  await t?.cleanup();
});

function runCommand(
  args: string[],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn("scripts/lock-hold-times", args, { cwd: PROJECT_ROOT });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("lock hold times against the TTL", () => {
  it("estimates quantiles inside the bucket, as histogram_quantile does", () => {
    const buckets = new Map([
      [0.1, 50],
      [0.2, 100],
      [Infinity, 100],
    ]);
    expect(quantile(0.5, buckets)?.value).toBeCloseTo(0.1);
    expect(quantile(0.75, buckets)?.value).toBeCloseTo(0.15);
    expect(
      quantile(
        0.99,
        new Map([
          [0.1, 1],
          [Infinity, 100],
        ]),
      ),
    ).toEqual({ value: 0.1, overflow: true });
    expect(quantile(0.5, new Map())).toBeNull();
  });

  it("judges p99 against a third and a thirtieth of the TTL", () => {
    expect(verdictFor(0.2, false, 0.3)).toBe("too short");
    expect(verdictFor(0.09, false, 0.3)).toBe("ok");
    expect(verdictFor(0.001, false, 0.3)).toBe("generous");
    expect(verdictFor(0.001, true, 0.3)).toBe("too short"); // past the largest bucket
    expect(verdictFor(null, false, 0.3)).toBe("no data");
  });

  it("reports each kind's measured holds and verdict from a live /metrics", async () => {
    const rows = holdTimes([await (await fetch(url)).text()]);
    const byKind = Object.fromEntries(rows.map((row) => [row.kind, row]));
    for (const kind of Object.keys(HOLDS_MS)) expect(byKind[kind]?.samples).toBe(10);
    expect(byKind.order).toMatchObject({ ttlSeconds: 0.3, verdict: "too short" });
    expect(byKind.order!.p99!).toBeGreaterThan(0.1);
    expect(byKind.update).toMatchObject({ ttlSeconds: 9, verdict: "ok" });
    expect(byKind.checkout).toMatchObject({ ttlSeconds: 60, verdict: "generous" });
    // A kind of LOCK_KINDS that took no lock here is listed, without data.
    expect(byKind.report).toMatchObject({ samples: 0, verdict: "no data" });
  });

  it("prints the table from the URL, and fails clearly on an endpoint without lock metrics", async () => {
    const ok = await runCommand([url]);
    expect(ok.code, ok.stderr).toBe(0);
    const line = (kind: string) => ok.stdout.split("\n").find((l) => l.startsWith(`${kind} `));
    expect(line("order")).toMatch(/\s10\s.*too short/);
    expect(line("update")).toMatch(/\s9000 ms\s.*\sok$/);

    const empty = createServer((_, res) => res.end("# nothing here\n"));
    await new Promise<void>((resolve) => empty.listen(0, "127.0.0.1", resolve));
    const address = empty.address();
    const port = typeof address === "object" && address ? address.port : 0;
    const failed = await runCommand([`http://127.0.0.1:${port}/metrics`]);
    empty.close();
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain("no orderbot_lock_hold_seconds_bucket samples");
  });
});
