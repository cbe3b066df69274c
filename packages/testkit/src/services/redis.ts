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

/** The pid of the redis-server answering on `port` (INFO's process_id), if one answers. */
function pidOnPort(port: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    let reply = "";
    const done = (pid?: number) => {
      socket.destroy();
      resolve(pid);
    };
    socket.setTimeout(1_000, () => done());
    socket.once("connect", () => socket.write("INFO server\r\n"));
    socket.on("data", (chunk) => {
      reply += chunk.toString();
      const match = /process_id:(\d+)/.exec(reply);
      if (match) done(Number(match[1]));
    });
    socket.once("error", () => done());
    socket.once("close", () => done());
  });
}

export interface RedisServer {
  port: number;
  /** A cluster node's bus port (started with `--cluster-enabled`). */
  busPort?: number;
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

/** How many times a server that exited at start is tried again on other ports. */
const START_ATTEMPTS = 5;

/**
 * A real redis-server process of a test's own, for what the shared one must not suffer: being
 * stopped, killed or paused to test outages. It gets a free port, and a cluster node a free bus
 * port too: the default, the port plus 10,000, lies in the ephemeral range. Another process may
 * bind a port found free before the server does; the server then exits, and is started again on
 * other ports.
 *
 * @example
 * const server = await startRedisServer();
 * await server.stop();   // Redis is down
 * await server.start();  // and back, on the same port
 */
export async function startRedisServer(options: { args?: string[] } = {}): Promise<RedisServer> {
  for (let attempt = 1; ; attempt++) {
    const server = await serverOnFreePorts(options.args ?? []);
    try {
      await server.start();
      return server;
    } catch (error) {
      await server.dispose();
      if (!(error instanceof ExitedAtStart) || attempt === START_ATTEMPTS) throw error;
    }
  }
}

class ExitedAtStart extends Error {
  constructor(port: number) {
    super(`redis-server on port ${port} exited at start`);
  }
}

async function serverOnFreePorts(args: string[]): Promise<RedisServer> {
  const port = await freePort();
  const busPort = args.includes("--cluster-enabled") ? await freePort() : undefined;
  if (busPort !== undefined) args = [...args, "--cluster-port", String(busPort)];
  const dir = await mkdtemp(path.join(os.tmpdir(), "orderbot-redis-"));
  let child: ChildProcess | undefined;
  const running = () => child !== undefined && child.exitCode === null && child.signalCode === null;

  // Up means this child answers: a port found free may be bound by another process meanwhile.
  const answering = async (up: boolean) =>
    up ? (await pidOnPort(port)) === child?.pid : !(await portAnswers(port));
  const waitFor = async (up: boolean) => {
    for (let i = 0; i < 200; i++) {
      if (await answering(up)) return;
      if (up && !running()) throw new ExitedAtStart(port);
      await sleep(25);
    }
    throw new Error(`redis-server on port ${port} did not ${up ? "start" : "stop"}`);
  };
  const end = async (signal: NodeJS.Signals) => {
    if (!running()) return;
    const proc = child!;
    const exited = new Promise((resolve) => proc.once("exit", resolve));
    proc.kill("SIGCONT");
    proc.kill(signal);
    await exited;
    await waitFor(false);
  };
  const server: RedisServer = {
    port,
    busPort,
    url: `redis://127.0.0.1:${port}`,
    async start() {
      if (running()) return;
      const base = ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--dir", dir];
      child = spawn("redis-server", [...base, "--appendonly", "no", ...args], { stdio: "ignore" });
      child.once("error", () => {}); // no redis-server on PATH: waitFor says so
      await waitFor(true);
    },
    stop: () => end("SIGTERM"),
    kill: () => end("SIGKILL"),
    pause: () => void child?.kill("SIGSTOP"),
    resume: () => void child?.kill("SIGCONT"),
    async dispose() {
      await server.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
  return server;
}
