// `npm run services`: start, status and stop on ports and a data directory of this test's own, so
// the services the rest of the suite uses are never touched.
import { execFile } from "node:child_process";
import { chmod, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { freePort, PROJECT_ROOT } from "@orderbot/testkit";

const run = promisify(execFile);
const dataDir = await mkdtemp(path.join(os.tmpdir(), "orderbot-services-"));
const pgPort = await freePort();
const redisPort = await freePort();
const env = {
  ...process.env,
  ORDERBOT_DATA_DIR: dataDir,
  DATABASE_URL: `postgresql://postgres@127.0.0.1:${pgPort}/shop`,
  REDIS_URL: `redis://127.0.0.1:${redisPort}`,
};

async function services(command: string, extraEnv: Record<string, string> = {}) {
  try {
    const { stdout, stderr } = await run(path.join(PROJECT_ROOT, "scripts/services"), [command], {
      env: { ...env, ...extraEnv },
    });
    return { code: 0, out: stdout + stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, out: e.stdout + e.stderr };
  }
}

async function processesUsing(dir: string): Promise<string[]> {
  const { stdout } = await run("ps", ["-eo", "args"]);
  return stdout
    .split("\n")
    .filter(
      (line) =>
        line.includes(dir) || line.includes(`:${redisPort}`) || line.includes(`-p ${pgPort}`),
    );
}

afterAll(async () => {
  await services("stop");
  await rm(dataDir, { recursive: true, force: true });
});

describe("npm run services", () => {
  it("starts both services, twice without harm, reports them, and stop leaves nothing running", async () => {
    const first = await services("start");
    expect(first.code, first.out).toBe(0);
    expect(first.out).toContain(`postgres started on port ${pgPort}`);
    expect(first.out).toContain(`redis started on port ${redisPort}`);

    const second = await services("start");
    expect(second.code, second.out).toBe(0);
    expect(second.out).toContain(`postgres already running on port ${pgPort}`);
    expect(second.out).toContain(`redis already running on port ${redisPort}`);

    const status = await services("status");
    expect(status.code).toBe(0);
    expect(status.out).toMatch(
      new RegExp(`postgres\\s+running\\s+port ${pgPort}\\s+\\(project-local`),
    );
    expect(status.out).toMatch(
      new RegExp(`redis\\s+running\\s+port ${redisPort}\\s+\\(project-local`),
    );

    const stop = await services("stop");
    expect(stop.code, stop.out).toBe(0);
    const after = await services("status");
    expect(after.code).toBe(1);
    expect(after.out).toMatch(new RegExp(`postgres\\s+stopped\\s+port ${pgPort}`));
    expect(after.out).toMatch(new RegExp(`redis\\s+stopped\\s+port ${redisPort}`));
    expect(await processesUsing(dataDir)).toEqual([]);
  });

  it("uses, and never stops, a server it did not start", async () => {
    // The suite's own services (from .env) are running and were not started with this data dir.
    const shared = {
      ...env,
      DATABASE_URL: process.env.DATABASE_URL!,
      REDIS_URL: process.env.REDIS_URL!,
    };
    const start = await run(path.join(PROJECT_ROOT, "scripts/services"), ["start"], {
      env: shared,
    });
    expect(start.stdout).toMatch(/postgres: using the server already on/);
    expect(start.stdout).toMatch(/redis: using the server already on/);
    const stop = await run(path.join(PROJECT_ROOT, "scripts/services"), ["stop"], { env: shared });
    expect(stop.stdout).toContain("nothing of ours running");
    const status = await run(path.join(PROJECT_ROOT, "scripts/services"), ["status"], {
      env: shared,
    });
    expect(status.stdout).toMatch(/postgres\s+running.*\(provided/);
  });

  it("refuses Redis older than 7 before starting anything, and says what to install", async () => {
    const bin = path.join(dataDir, "old-redis-bin");
    await mkdir(bin);
    const fake = path.join(bin, "redis-server");
    await writeFile(fake, '#!/bin/sh\necho "Redis server v=6.2.0 sha=00000000:0 bits=64"\n');
    await chmod(fake, 0o755);
    const result = await services("start", { PATH: `${bin}:${process.env.PATH}` });
    expect(result.code).toBe(1);
    expect(result.out).toContain("Redis 6.2.0 found; orderbot needs Redis 7 or later");
    expect(result.out).toContain("apt-get install redis-server");
    const status = await services("status");
    expect(status.out).toMatch(new RegExp(`postgres\\s+stopped\\s+port ${pgPort}`));
  });

  it("rejects an unknown command with its usage", async () => {
    const result = await services("restart-everything");
    expect(result.code).toBe(2);
    expect(result.out).toContain("usage: npm run services -- start|stop|status");
  });
});
