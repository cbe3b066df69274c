// Least privilege in Redis: a redis-server started with docker/services.yaml's own arguments; the
// apps' ACL user (the user of their REDIS_URL) takes and releases locks through the shop's lock
// manager, reads what the apps read, and is refused every dangerous command.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { LOCK_KINDS } from "@orderbot/core";
import { createRedis, waitForRedis, type Redis } from "@orderbot/platform";
import { shopLockManager, startRedisServer, type RedisServer } from "@orderbot/testkit";
import { DOCKER_DIR } from "./support/tools.ts";

const APP_PASSWORD = "redis-app-password-0123";

/**
 * The redis service's arguments as compose passes them, the app user's password filled in. The
 * default user's --requirepass is left out: the test kit's start-up probe talks to the server
 * unauthenticated, and this test is about the app user.
 */
async function composeArgs(): Promise<string[]> {
  const file = parse(await readFile(path.join(DOCKER_DIR, "services.yaml"), "utf8")) as {
    services: { redis: { command: string[] } };
  };
  const args = file.services.redis.command.slice(1);
  const requirepass = args.indexOf("--requirepass");
  expect(requirepass).toBeGreaterThanOrEqual(0);
  args.splice(requirepass, 2);
  return args.map((arg) => arg.replace(/\$\{REDIS_APP_PASSWORD:\?[^}]*\}/, APP_PASSWORD));
}

let server: RedisServer;
let app: Redis;
beforeAll(async () => {
  server = await startRedisServer({ args: await composeArgs() });
  app = createRedis({
    url: `redis://orderbot:${APP_PASSWORD}@127.0.0.1:${server.port}`,
    commandTimeoutMs: 2_000,
  });
  await waitForRedis(app);
});
afterAll(async () => {
  app?.disconnect();
  await server?.dispose();
});

describe("the apps' Redis user (orderbot)", () => {
  it("takes and releases a lock through the shop's lock manager, and reads INFO", async () => {
    const locks = shopLockManager({
      redis: app,
      namespace: "acl-test",
      kinds: LOCK_KINDS,
      hashKey: "acl-test-hash-key-0123",
    });
    try {
      const result = await locks.acquire({ kind: "checkout", id: 1 }, { requestId: "acl" });
      expect(result.ok).toBe(true);
      if (result.ok) await result.lease.release();
    } finally {
      await locks.close();
    }
    expect(await app.info("server")).toMatch(/^redis_version:7/m);
    expect(await app.call("WAIT", "0", "0")).toBe(0);
  });

  it.each([
    ["FLUSHALL"],
    ["CONFIG", "SET", "maxmemory", "1"],
    ["SAVE"],
    ["KEYS", "*"],
    ["FLUSHDB"],
    ["ACL", "LIST"],
  ])("is refused %s", async (...command) => {
    await expect(app.call(command[0]!, ...command.slice(1))).rejects.toThrow(/NOPERM/);
  });
});
