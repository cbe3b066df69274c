// The package's own Redis for its tests: plain redis-server processes, nothing else. A test file
// shares one server (started on first use, or the one at LOCK_TEST_REDIS_URL), under a namespace
// of its own; a test that stops, kills or pauses Redis starts a server of its own.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { Redis } from "ioredis";

export interface RedisServer {
  port: number;
  /** A cluster node's bus port (started with `--cluster-enabled`). */
  busPort?: number;
  url: string;
  /** Starts (or restarts) the server on the same port. */
  start(): Promise<void>;
  /** SIGTERM, and waits until the port is closed. */
  stop(): Promise<void>;
  /** SIGKILL, as a crash would. */
  kill(): Promise<void>;
  /** SIGSTOP / SIGCONT: a server that hangs without closing its connections. */
  pause(): void;
  resume(): void;
  /** Stops it and removes its files. */
  dispose(): Promise<void>;
}

export interface TestRedis {
  redis: Redis;
  url: string;
  /** Every key and channel the test writes starts with it (or with `{` and it). */
  namespace: string;
  /** Deletes the namespace's keys and closes the client. */
  cleanup(): Promise<void>;
}

/** Whether something listens on `port` of the loopback interface. */
function answers(port: number): Promise<boolean> {
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

/** A free port below the kernel's ephemeral range (a port from it may be taken meanwhile). */
async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    const free = await new Promise<boolean>((resolve) => {
      const server = net.createServer();
      server.once("error", () => resolve(false));
      server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
    });
    if (free) return port;
  }
  throw new Error("no free port between 20000 and 32000");
}

/** How many times a server that exited at start is tried again on other ports. */
const START_ATTEMPTS = 5;

/**
 * Starts a redis-server (from PATH) with `args`, on a free port, without persistence. A cluster
 * node gets a free bus port too (`busPort`): its default, the port plus 10,000, lies in the
 * kernel's ephemeral range, where an outgoing connection may hold it. A port found free may be
 * taken by another test before the server binds it; the server then exits, and is started again
 * on other ports.
 */
export async function startRedisServer(args: string[] = []): Promise<RedisServer> {
  for (let attempt = 1; ; attempt++) {
    const server = await serverOnFreePorts(args);
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
  const dir = await mkdtemp(path.join(os.tmpdir(), "lock-redis-"));
  let child: ChildProcess | undefined;
  const running = () => child !== undefined && child.exitCode === null && !child.signalCode;
  // Up means this child answers: a port found free may be bound by another process meanwhile.
  const answering = async (up: boolean) =>
    up ? (await pidOnPort(port)) === child?.pid : !(await answers(port));
  const until = async (up: boolean) => {
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
    await until(false);
  };
  const server: RedisServer = {
    port,
    busPort,
    url: `redis://127.0.0.1:${port}`,
    async start() {
      if (running()) return;
      const base = ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--dir", dir];
      child = spawn("redis-server", [...base, "--appendonly", "no", ...args], { stdio: "ignore" });
      child.once("error", () => {}); // no redis-server on PATH: `until` says so
      await until(true);
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
  process.once("exit", () => child?.kill("SIGKILL")); // a test that failed before dispose()
  return server;
}

let shared: Promise<{ url: string; server?: RedisServer }> | undefined;
let users = 0;

/** The Redis this test file shares: LOCK_TEST_REDIS_URL, or a server started for the file. */
function sharedRedis(): Promise<{ url: string; server?: RedisServer }> {
  const url = process.env.LOCK_TEST_REDIS_URL;
  shared ??= url
    ? Promise.resolve({ url })
    : startRedisServer().then((s) => ({ url: s.url, server: s }));
  return shared;
}

/** A client and a namespace of its own for one test file, on the shared test Redis. */
export async function createTestRedis(): Promise<TestRedis> {
  users += 1;
  const { url, server } = await sharedRedis();
  const redis = new Redis(url, { maxRetriesPerRequest: 1 });
  const namespace = `test-${randomBytes(5).toString("hex")}`;
  const drop = async (pattern: string) => {
    let cursor = "0";
    do {
      const [next, keys] = await redis.scan(cursor, "MATCH", pattern, "COUNT", 500);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== "0");
  };
  return {
    redis,
    url,
    namespace,
    async cleanup() {
      await drop(`${namespace}*`);
      await drop(`{${namespace}*`);
      redis.disconnect();
      users -= 1;
      if (users === 0 && server) {
        shared = undefined; // the last user of a server of our own stops it
        await server.dispose();
      }
    },
  };
}
