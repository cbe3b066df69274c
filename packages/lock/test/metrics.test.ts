// One scenario that should move every lock metric, then a check that each one did, by name
// (LOCK_METRICS, which dashboards and alert rules use) and labelled by kind.
import { expect, it } from "vitest";
import { setTimeout as sleep } from "node:timers/promises";
import { Registry } from "prom-client";
import { LOCK_METRICS } from "../src/index.ts";
import { fastClient, layeredManager } from "./support.ts";
import { useSharedRedis } from "./use-shared-redis.ts";

const fx = useSharedRedis();

type Sample = { labels: Record<string, string | number>; value: number; metricName?: string };

async function samples(registry: Registry, name: string): Promise<Sample[]> {
  const metric = registry.getSingleMetric(name);
  expect(metric, `${name} is registered`).toBeDefined();
  return (await metric!.get()).values as Sample[];
}

const value = (all: Sample[], labels: Record<string, string>, suffix = "") =>
  all
    .filter(
      (s) =>
        (s.metricName ?? "").endsWith(suffix) &&
        Object.entries(labels).every(([k, v]) => s.labels[k] === v),
    )
    .reduce((sum, s) => sum + s.value, 0);

it("moves every lock metric, each labelled by kind", async () => {
  const registry = new Registry();
  const locks = await fx.make({ registry });
  const rival = await fx.make({ registry }); // a second manager on the same registry reuses the metrics

  // acquired, held, released (+ wait and hold histograms, command latency)
  const first = await locks.acquire({ kind: "order", id: "m-1" });
  if (!first.ok) throw new Error("must acquire");
  // busy
  expect((await rival.acquire({ kind: "order", id: "m-1" }, { waitMs: 0 })).ok).toBe(false);
  // aborted
  const controller = new AbortController();
  const waiting = rival.acquire(
    { kind: "order", id: "m-1" },
    { waitMs: 5000, signal: controller.signal },
  );
  await sleep(20);
  controller.abort();
  await expect(waiting).rejects.toThrow();
  await first.lease.release();

  // renewals ok, then lost while the work was running, and a release that is not ours
  await locks.withLock(
    { kind: "order", id: "m-2" },
    async ({ lease, signal }) => {
      await sleep(250);
      await fx.test.redis.set(lease!.key, "taken-over");
      while (!signal.aborted) await sleep(10);
    },
    { ttlMs: 300 },
  );

  // unavailable: a manager whose Redis does not answer, on the same registry
  const down = fastClient("redis://127.0.0.1:1");
  down.on("error", () => {});
  const offline = layeredManager(down, fx.test.namespace, {
    registry,
    breaker: { failureThreshold: 1, coolDownMs: 60_000 },
  });
  expect(await offline.withLock({ kind: "update", id: 1 }, async () => "db only")).toMatchObject({
    status: "ok",
    degraded: true,
    lost: null,
  });
  expect(await offline.withLock({ kind: "job", id: "report" }, async () => "never")).toEqual({
    status: "skipped",
  });
  await offline.close();
  down.disconnect();

  const acquire = await samples(registry, LOCK_METRICS.acquireTotal);
  expect(value(acquire, { kind: "order", outcome: "acquired" })).toBe(2);
  expect(value(acquire, { kind: "order", outcome: "busy" })).toBe(1);
  expect(value(acquire, { kind: "order", outcome: "aborted" })).toBe(1);
  expect(value(acquire, { kind: "update", outcome: "unavailable" })).toBe(1);
  expect(
    value(await samples(registry, LOCK_METRICS.waitSeconds), { kind: "order" }, "_count"),
  ).toBe(3);
  expect(
    value(await samples(registry, LOCK_METRICS.holdSeconds), { kind: "order" }, "_count"),
  ).toBe(2);
  const renewals = await samples(registry, LOCK_METRICS.renewalsTotal);
  expect(value(renewals, { kind: "order", outcome: "ok" })).toBeGreaterThanOrEqual(1);
  expect(value(renewals, { kind: "order", outcome: "lost" })).toBe(1);
  expect(value(await samples(registry, LOCK_METRICS.leaseLostTotal), { kind: "order" })).toBe(1);
  expect(value(await samples(registry, LOCK_METRICS.releaseNotOwnerTotal), { kind: "order" })).toBe(
    1,
  );
  const latency = await samples(registry, LOCK_METRICS.redisLatencySeconds);
  for (const command of ["acquire", "release", "extend"]) {
    expect(value(latency, { kind: "order", command }, "_count"), command).toBeGreaterThan(0);
  }
  expect(value(await samples(registry, LOCK_METRICS.breakerOpen), { kind: "update" })).toBe(1);
  const degraded = await samples(registry, LOCK_METRICS.degradedTotal);
  expect(value(degraded, { kind: "update", policy: "proceed-db-only" })).toBe(1);
  expect(value(degraded, { kind: "job", policy: "skip" })).toBe(1);

  // Every metric the module exports is registered under its LOCK_METRICS name with a kind label.
  for (const name of Object.values(LOCK_METRICS)) {
    const all = await samples(registry, name);
    expect(all.length, name).toBeGreaterThan(0);
    for (const sample of all) expect(sample.labels.kind, name).toBeDefined();
  }
});

it("has each kind's lost-lease, not-owner and breaker series at zero before anything happened", async () => {
  const registry = new Registry();
  await fx.make({ registry });
  for (const name of [
    LOCK_METRICS.leaseLostTotal,
    LOCK_METRICS.releaseNotOwnerTotal,
    LOCK_METRICS.breakerOpen,
  ]) {
    const order = (await samples(registry, name)).filter((s) => s.labels.kind === "order");
    expect(
      order.map((s) => s.value),
      name,
    ).toEqual([0]);
  }
});
