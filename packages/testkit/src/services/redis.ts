import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { Redis } from "ioredis";
import { serviceUrls } from "./env.ts";

export interface TestRedis {
  /** A client on the shared test Redis (fails fast like production clients do). */
  redis: Redis;
  url: string;
  /** A namespace of this test file's own; every key it writes starts with it. */
  namespace: string;
  /** Deletes every key under the namespace and closes the client. */
  cleanup(): Promise<void>;
}

/** A Redis client and a namespace of its own for one test file, on the shared test Redis. */
export async function createTestRedis(): Promise<TestRedis> {
  const { redisUrl } = serviceUrls();
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
  const namespace = `test-${randomBytes(5).toString("hex")}`;
  return {
    redis,
    url: redisUrl,
    namespace,
    async cleanup() {
      await deleteKeys(redis, `${namespace}*`);
      await deleteKeys(redis, `{${namespace}*`);
      redis.disconnect();
    },
  };
}

async function deleteKeys(redis: Redis, pattern: string): Promise<void> {
  let cursor = "0";
  do {
    const [next, keys] = await redis.scan(cursor, "MATCH", pattern, "COUNT", 500);
    cursor = next;
    if (keys.length > 0) await redis.del(...keys);
  } while (cursor !== "0");
}

/**
 * Ports handed out below the kernel's ephemeral range (32768-60999 on Linux), which outgoing
 * connections and `listen(0)` draw from. A port is chosen here, then bound later by another
 * process; one from the ephemeral range could be taken meanwhile by any connection the tests open
 * (a bot's PORT once failed with EADDRINUSE that way). Down here only explicit choices compete.
 */
const PORT_RANGE = { from: 20_000, to: 32_000 };
/** Ports this process handed out already: never twice, so two callers never share one. */
const handedOut = new Set<number>();

/** Whether `port` can be bound on the loopback interface right now. */
function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

/** A free TCP port on the loopback interface, outside the ephemeral range, new to this process. */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = PORT_RANGE.from + Math.floor(Math.random() * (PORT_RANGE.to - PORT_RANGE.from));
    if (handedOut.has(port)) continue;
    handedOut.add(port);
    if (await bindable(port)) return port;
  }
  throw new Error(`no free port between ${PORT_RANGE.from} and ${PORT_RANGE.to}`);
}

async function portAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

export interface RedisServer {
  port: number;
  url: string;
  /** Starts (or restarts) the server on the same port. */
  start(): Promise<void>;
  /** Stops it gracefully (SIGTERM) and waits until the port is closed. */
  stop(): Promise<void>;
  /** SIGKILL, as a crash would. */
  kill(): Promise<void>;
  /** SIGSTOP / SIGCONT: a server that hangs without closing its connections. */
  pause(): void;
  resume(): void;
  /** Stops it and removes its files. */
  dispose(): Promise<void>;
}

/**
 * A real redis-server process of a test's own, for what the shared one must not suffer: being
 * stopped, killed or paused to test outages.
 *
 * @example
 * const server = await startRedisServer();
 * await server.stop();   // Redis is down
 * await server.start();  // and back, on the same port
 */
export async function startRedisServer(
  options: { port?: number; args?: string[] } = {},
): Promise<RedisServer> {
  const port = options.port ?? (await freePort());
  const dir = await mkdtemp(path.join(os.tmpdir(), "orderbot-redis-"));
  let child: ChildProcess | undefined;

  const waitFor = async (up: boolean) => {
    for (let i = 0; i < 200; i++) {
      if ((await portAnswers(port)) === up) return;
      await sleep(25);
    }
    throw new Error(`redis-server on port ${port} did not ${up ? "start" : "stop"}`);
  };
  const exited = (proc: ChildProcess) =>
    proc.exitCode !== null || proc.signalCode !== null
      ? Promise.resolve()
      : new Promise<void>((resolve) => proc.once("exit", () => resolve()));

  const server: RedisServer = {
    port,
    url: `redis://127.0.0.1:${port}`,
    async start() {
      if (child && child.exitCode === null && child.signalCode === null) return;
      child = spawn(
        "redis-server",
        [
          "--port",
          String(port),
          "--bind",
          "127.0.0.1",
          "--save",
          "",
          "--appendonly",
          "no",
          "--dir",
          dir,
          ...(options.args ?? []),
        ],
        { stdio: "ignore" },
      );
      await waitFor(true);
    },
    async stop() {
      if (!child) return;
      const proc = child;
      proc.kill("SIGCONT");
      proc.kill("SIGTERM");
      await exited(proc);
      await waitFor(false);
    },
    async kill() {
      if (!child) return;
      const proc = child;
      proc.kill("SIGKILL");
      await exited(proc);
      await waitFor(false);
    },
    pause() {
      child?.kill("SIGSTOP");
    },
    resume() {
      child?.kill("SIGCONT");
    },
    async dispose() {
      await server.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
  await server.start();
  return server;
}
