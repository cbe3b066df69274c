// What the lock writes to Redis and to its logs never names a person or holds a secret. A Redis
// server of the test's own records every command (MONITOR) while a scenario runs; then every key
// written, every channel, and every log line is searched for the raw ids and secrets.
import { afterAll, beforeAll, expect, it } from "vitest";
import { Redis } from "ioredis";
import type { LockKindConfig, LockManager } from "../src/index.ts";
import { fastClient, layeredManager, ready, recordingLogger, sleep } from "./support.ts";
import { useOwnRedis } from "./use-shared-redis.ts";

const TELEGRAM_USER_ID = 7350123456n;
const PHONE = "+14155550123";
const BOT_TOKEN = "7350123456:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw";
const HASH_KEY = "a-secret-hash-key-of-32-chars!!";

const KINDS: Record<string, LockKindConfig> = {
  checkout: { ttlMs: 2000, waitMs: 2000, outage: "refuse", personal: true },
  contact: { ttlMs: 2000, waitMs: 0, outage: "refuse", personal: true },
  order: { ttlMs: 2000, waitMs: 2000, outage: "refuse" },
};

const server = useOwnRedis();
let monitor: Redis;
const commands: string[][] = [];

beforeAll(async () => {
  // No ready check (INFO) on the monitoring connection: its reply would race the MONITOR stream.
  const base = new Redis(server.url, { enableReadyCheck: false, lazyConnect: true });
  monitor = await base.monitor();
  monitor.on("monitor", (_time: string, args: string[]) => commands.push(args));
});
afterAll(async () => {
  monitor?.disconnect();
});

/** The keys a command names (script keys, or the first argument of a plain command). */
function keysOf(args: string[]): string[] {
  const [name, ...rest] = args;
  const command = name!.toLowerCase();
  if (command === "evalsha" || command === "eval") return rest.slice(2, 2 + Number(rest[1]));
  if (
    [
      "monitor",
      "ping",
      "info",
      "client",
      "subscribe",
      "unsubscribe",
      "publish",
      "wait",
      "select",
      "script",
      "time",
    ].includes(command)
  )
    return [];
  return rest.slice(0, 1);
}

it("writes no raw user id, phone number or token into keys, channels or logs", async () => {
  const logger = recordingLogger();
  const clients = [fastClient(server.url), fastClient(server.url)];
  await Promise.all(clients.map(ready));
  const [a, b] = clients.map((redis) =>
    layeredManager(redis, "prod:shopbot", { hashKey: HASH_KEY, kinds: KINDS, logger }),
  ) as [LockManager, LockManager];

  // A user's checkout, contended by a second instance; a phone number as a personal id; an order.
  const held = await a.acquire(
    { kind: "checkout", id: TELEGRAM_USER_ID },
    { requestId: "update-901" },
  );
  if (!held.ok) throw new Error("must acquire");
  const waiting = b.withLock({ kind: "checkout", id: TELEGRAM_USER_ID }, async () => "second", {
    requestId: "update-902",
  });
  await sleep(30);
  await held.lease.release();
  expect((await waiting).status).toBe("ok");
  await a.withLock({ kind: "contact", id: PHONE }, async ({ lease }) => {
    await clients[0]!.del(lease!.key); // lost: the release below is not ours and gets logged
  });
  await a.withLock({ kind: "order", id: "ord_1" }, async () => "paid");
  await sleep(50); // let MONITOR catch up

  const written = commands.flatMap(keysOf);
  expect(written.length).toBeGreaterThan(10);
  const published = commands
    .filter((args) => args[0]?.toLowerCase() === "publish")
    .map((args) => args[1]);
  const logs = JSON.stringify(logger.lines);
  for (const secret of [String(TELEGRAM_USER_ID), PHONE, PHONE.slice(1), BOT_TOKEN, HASH_KEY]) {
    for (const key of written) expect(key).not.toContain(secret);
    for (const channel of published) expect(channel).not.toContain(secret);
    expect(logs).not.toContain(secret);
  }
  // Every key is under the namespace, hash-tagged; personal ids appear only as an HMAC.
  for (const key of written)
    expect(key).toMatch(
      /^\{prod:shopbot:lock:(checkout|contact|order):[^{}]+\}(:fence|:queue|:tickets)?$/,
    );
  for (const channel of published)
    expect(channel).toMatch(/^prod:shopbot:lock:inbox:[A-Za-z0-9_-]+$/);
  expect(a.keyFor({ kind: "checkout", id: TELEGRAM_USER_ID })).toMatch(
    /^\{prod:shopbot:lock:checkout:h\.[A-Za-z0-9_-]{27}\}$/,
  );
  expect(a.keyFor({ kind: "order", id: "ord_1" })).toBe("{prod:shopbot:lock:order:ord_1}");
  // Logs carry the kind, the masked id and the request id.
  const warning = logger.lines.find(
    (line) => line.level === "warn" && (line.obj as { kind?: string }).kind === "contact",
  );
  expect(warning?.obj).toMatchObject({ kind: "contact", id: expect.stringMatching(/^h\./) });
  expect(logs).not.toContain(held.lease.token);

  await a.close();
  await b.close();
  for (const redis of clients) redis.disconnect();
});

it("hashes the same person to the same key for a given hash key, and differently per kind and per hash key", () => {
  const redis = new Redis({ lazyConnect: true });
  const make = (hashKey: string) =>
    layeredManager(redis, "prod:shopbot", { hashKey, kinds: KINDS });
  const locks = make(HASH_KEY);
  const checkout = locks.keyFor({ kind: "checkout", id: TELEGRAM_USER_ID });
  expect(locks.keyFor({ kind: "checkout", id: String(TELEGRAM_USER_ID) })).toBe(checkout);
  expect(locks.keyFor({ kind: "contact", id: TELEGRAM_USER_ID }).split(":").at(-1)).not.toBe(
    checkout.split(":").at(-1),
  );
  expect(
    make("another-secret-hash-key-0123").keyFor({ kind: "checkout", id: TELEGRAM_USER_ID }),
  ).not.toBe(checkout);
  redis.disconnect();
});
