// Graceful shutdown end to end: a replica gets SIGTERM while it is handling updates; every update
// still gets handled exactly once (the in-flight ones by it, the rest by the other replica after
// Telegram re-delivers). And `npm start` runs bot and worker together and stops them together.
import { spawn } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, createTestRedis, freePort, PROJECT_ROOT } from "@orderbot/testkit";
import { startFakeTelegram } from "@orderbot/fake-telegram";
import { startShop, type E2eShop } from "./support/shop.ts";
import { allDelivered } from "./support/users.ts";

describe("SIGTERM under load", () => {
  let shop: E2eShop;
  beforeAll(async () => {
    shop = await startShop({ replicas: 2 });
  });
  afterAll(() => shop?.stop());

  it("loses no update and handles none twice", async () => {
    const { kit } = shop;
    const users = Array.from({ length: 16 }, () => kit.createUser({ languageCode: "en" }));
    const perUser = 4;
    // Every reply takes a while, so that updates are in flight when the signal comes.
    const slow = kit.faults.set({ method: "sendMessage", latencyMs: { min: 50, max: 150 } });

    const sends = users.flatMap((user) =>
      Array.from({ length: perUser }, () => user.send("/help")),
    );
    await Promise.all(sends);
    // Mid-stream: a quarter of the replies are out.
    while (kit.callsTo("sendMessage").length < (users.length * perUser) / 4)
      await new Promise((resolve) => setTimeout(resolve, 10));
    const [first] = shop.bots;
    const exitCode = await first!.stop();
    await allDelivered(kit);
    slow.remove();

    expect(exitCode).toBe(0);
    expect(first!.output.some((line) => line.includes('"msg":"stopped"'))).toBe(true);
    const updates = kit.deliveries.filter((d) =>
      users.some((u) => u.id === d.update.message?.from?.id),
    );
    expect(updates).toHaveLength(users.length * perUser);
    expect(updates.filter((d) => d.status !== "delivered")).toEqual([]);
    for (const user of users) {
      const replies = user
        .view()
        .botMessages.filter((m) => m.text?.startsWith("/catalog: products"));
      expect(replies, `replies to user ${user.id}`).toHaveLength(perUser);
    }
    // The signal did land mid-stream: some updates had to be delivered again.
    expect(updates.some((d) => d.attempts.length > 1)).toBe(true);
  });
});

describe("npm start", () => {
  it("runs the bot and the worker, and stops both on SIGTERM", async () => {
    const testDb = await createTestDatabase({ poolMax: 2 });
    const testRedis = await createTestRedis();
    const kit = await startFakeTelegram();
    const [botPort, workerPort] = [await freePort(), await freePort()];
    try {
      const child = spawn(path.join(PROJECT_ROOT, "scripts/start"), [], {
        cwd: PROJECT_ROOT,
        env: {
          ...process.env,
          NODE_ENV: "production",
          LOG_LEVEL: "info",
          BOT_TOKEN: kit.token,
          BOT_MODE: "polling",
          TELEGRAM_API_ROOT: kit.apiRoot,
          PORT: String(botPort),
          WORKER_PORT: String(workerPort),
          DATABASE_URL: testDb.url,
          DATABASE_POOL_MAX: "2",
          REDIS_URL: testRedis.url,
          LOCK_NAMESPACE: testRedis.namespace,
          LOCK_HASH_KEY: "npm-start-hash-key-0123456789",
        },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let output = "";
      child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
      const exited = new Promise<number | null>((resolve) =>
        child.once("exit", (code) => resolve(code)),
      );

      const ready = async (url: string) => {
        for (let i = 0; i < 300; i++) {
          if (
            await fetch(url).then(
              (r) => r.ok,
              () => false,
            )
          )
            return;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        throw new Error(`not ready: ${url}\n${output}`);
      };
      await ready(`http://127.0.0.1:${botPort}/healthz`);
      await ready(`http://127.0.0.1:${workerPort}/healthz`);

      const user = kit.createUser({ languageCode: "en" });
      await user.send("/start");
      // Generous: the suite runs this beside the chaos test on two cores. A failure shows the apps' logs.
      await user.waitForMessage("Welcome", { timeoutMs: 60_000 }).catch((error: unknown) => {
        throw new Error(`no welcome; the apps printed:\n${output}`, { cause: error });
      });

      child.kill("SIGTERM");
      expect(await exited, output).toBe(0);
      expect(output).toContain('"msg":"stopped"');
      expect(output).toContain("worker stopped");
      for (const port of [botPort, workerPort]) {
        expect(
          await fetch(`http://127.0.0.1:${port}/healthz`).then(
            () => "up",
            () => "down",
          ),
        ).toBe("down");
      }
    } finally {
      await kit.close();
      await testRedis.cleanup();
      await testDb.drop();
    }
  }, 120_000);
});
