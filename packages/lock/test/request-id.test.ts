// Every warning the lock logs about a caller's lock names the caller's request id (the update id,
// the job run, the operator command), so a lost lease can be traced to the work that held it.
import { expect, it } from "vitest";
import { setTimeout as sleep } from "node:timers/promises";
import { recordingLogger } from "./support.ts";
import { useSharedRedis } from "./use-shared-redis.ts";

const fx = useSharedRedis();

const warningsOf = (logger: ReturnType<typeof recordingLogger>, requestId: string) =>
  logger.lines.filter(
    (line) => line.level === "warn" && (line.obj as { requestId?: string }).requestId === requestId,
  );

it("names the request id in the not-owner release warning", async () => {
  const logger = recordingLogger();
  const locks = await fx.make({ logger });
  const result = await locks.acquire({ kind: "order", id: "rid-1" }, { requestId: "update-7001" });
  if (!result.ok) throw new Error("must acquire");
  await fx.test.redis.del(result.lease.key); // expired, as far as Redis is concerned
  expect(await result.lease.release()).toBe("not-owner");
  const [warning] = warningsOf(logger, "update-7001");
  expect(warning?.msg).toMatch(/no longer ours/);
  expect(warning?.obj).toMatchObject({ kind: "order", id: "rid-1", requestId: "update-7001" });
});

it("names the request id in the lease-lost warning", async () => {
  const logger = recordingLogger();
  const locks = await fx.make({ logger });
  const outcome = await locks.withLock(
    { kind: "order", id: "rid-2" },
    async ({ lease, signal }) => {
      await fx.test.redis.set(lease!.key, "someone-else"); // taken over
      while (!signal.aborted) await sleep(10); // the next renewal finds out
      return "stopped";
    },
    { ttlMs: 150, requestId: "job-relay-42" },
  );
  expect(outcome.status).toBe("ok");
  const lost = warningsOf(logger, "job-relay-42").find((line) => /lease lost/.test(line.msg ?? ""));
  expect(lost?.obj).toMatchObject({
    kind: "order",
    reason: "not-owner",
    requestId: "job-relay-42",
  });
});
