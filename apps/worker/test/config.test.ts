import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { parseEnv } from "node:util";
import { describe, expect, it } from "vitest";
import { configProblems, spawnApp } from "@orderbot/testkit";
import { parseWorkerConfig } from "../src/config.ts";

const minimal = {
  DATABASE_URL: "postgresql://postgres@127.0.0.1:54329/orderbot",
  REDIS_URL: "redis://127.0.0.1:63799",
  LOCK_HASH_KEY: "a-long-enough-hash-key",
  BOT_TOKEN: "123456:ABCDEFGHIJKLMNOPQRSTUVWXYZ",
};

const workerProblems = (env: Record<string, string>) =>
  configProblems(() => parseWorkerConfig({ ...minimal, ...env }));

describe("worker config", () => {
  it("fills in defaults that follow Telegram's limits", () => {
    const config = parseWorkerConfig(minimal);
    expect(config).toMatchObject({
      EXPIRE_MODE: "leader",
      OUTBOX_GLOBAL_PER_SECOND: 25,
      OUTBOX_MAX_ATTEMPTS: 8,
      WORKER_PORT: 8090,
      NOTIFY_LOCALE: "en",
    });
    expect(config.OPERATOR_GROUP_ID).toBeUndefined();
    expect(
      parseWorkerConfig({ ...minimal, OPERATOR_GROUP_ID: "-1001234567890" }).OPERATOR_GROUP_ID,
    ).toBe(-1001234567890n);
  });

  it("lists every problem, one line each", () => {
    const found = workerProblems({
      BOT_TOKEN: "nope",
      OPERATOR_GROUP_ID: "12345",
      EXPIRE_MODE: "everyone",
      OUTBOX_GLOBAL_PER_SECOND: "100",
    });
    expect(found).toHaveLength(4);
    expect(found.join("\n")).toMatch(/BOT_TOKEN: must look like/);
    expect(found.join("\n")).toMatch(/OPERATOR_GROUP_ID: must be a group chat id/);
    expect(found.join("\n")).toMatch(/EXPIRE_MODE/);
    expect(found.join("\n")).toMatch(/OUTBOX_GLOBAL_PER_SECOND/);
  });

  it("refuses an outbox claim shorter than the wait for a slot plus the call", () => {
    expect(
      workerProblems({
        OUTBOX_CLAIM_MS: "5000",
        OUTBOX_HORIZON_MS: "5000",
        OUTBOX_SEND_TIMEOUT_MS: "10000",
      }),
    ).toEqual([
      "OUTBOX_CLAIM_MS: must be at least OUTBOX_HORIZON_MS + OUTBOX_SEND_TIMEOUT_MS + 1000 (16000)",
    ]);
    expect(workerProblems({ OUTBOX_RETRY_BASE_MS: "10000", OUTBOX_RETRY_MAX_MS: "5000" })).toEqual([
      "OUTBOX_RETRY_BASE_MS: must not exceed OUTBOX_RETRY_MAX_MS",
    ]);
  });

  it("names REPORT_HOUR when given the old REPORT_HOUR_UTC, whose hour was UTC's", () => {
    expect(workerProblems({ REPORT_HOUR_UTC: "6" })).toEqual([
      "REPORT_HOUR_UTC: renamed to REPORT_HOUR, an hour in SHOP_TIME_ZONE",
    ]);
    expect(workerProblems({ REPORT_HOUR: "6", SHOP_TIME_ZONE: "Asia/Shanghai" })).toEqual([]);
  });
});

describe("the worker process with a bad configuration", () => {
  it("exits 1 and names each problem on a line of its own, before connecting to anything", async () => {
    const app = await spawnApp({
      name: "bad-config",
      entry: "apps/worker/src/main.ts",
      env: { ...minimal, BOT_TOKEN: "not-a-token", EXPIRE_BATCH_SIZE: "0", LOG_LEVEL: "info" },
    });
    expect(await app.exited).toBe(1);
    const output = app.output.join("\n");
    expect(output).toContain("invalid configuration:");
    expect(
      app.output.filter((line) => /^\s+- (BOT_TOKEN|EXPIRE_BATCH_SIZE):/.test(line)),
    ).toHaveLength(2);
    expect(output).not.toContain("not-a-token");
  }, 30_000);
});

describe("the worker in production on development defaults", () => {
  const example = parseEnv(
    readFileSync(path.resolve(import.meta.dirname, "../../../.env.example"), "utf8"),
  ) as Record<string, string>;

  it("refuses .env.example's hash key and each development-only setting it defaulted, by name", () => {
    const production = { ...example, ...minimal, NODE_ENV: "production" };
    const refused = (env: Record<string, string>, defaulted: string[]) =>
      configProblems(() => parseWorkerConfig(env, new Set(defaulted))).map((p) => p.split(":")[0]);
    expect(
      refused({ ...production, LOCK_HASH_KEY: example.LOCK_HASH_KEY! }, [
        "REDIS_URL",
        "LOCK_NAMESPACE",
        "OUTBOX_BATCH_SIZE",
      ]).sort(),
    ).toEqual(["LOCK_HASH_KEY", "LOCK_NAMESPACE", "REDIS_URL"]);
    expect(refused(production, [])).toEqual([]);
    expect(refused({ ...production, NODE_ENV: "development" }, ["REDIS_URL"])).toEqual([]);
  });

  it("exits 1 when started with NODE_ENV=production on .env.example's key and services", async () => {
    // Only what is given here: nothing of the test runner's own environment.
    const child = spawn(
      process.execPath,
      ["--import", "tsx", path.resolve(import.meta.dirname, "../src/main.ts")],
      {
        env: { PATH: process.env.PATH, BOT_TOKEN: minimal.BOT_TOKEN, NODE_ENV: "production" },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    // Without the check the worker would run on: it must not outlive the test.
    const exited = new Promise((resolve) => child.once("exit", resolve));
    const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
    expect(await exited.finally(() => clearTimeout(timer))).toBe(1);
    const named = output.split("\n").flatMap((line) => /^\s*(?:- )?(\w+): /.exec(line)?.[1] ?? []);
    // LOCK_NAMESPACE is not in .env.example: unset, it names the bot (prod:bot<id>).
    expect(named.sort()).toEqual(["DATABASE_URL", "LOCK_HASH_KEY", "REDIS_URL"]);
    expect(output).not.toContain(example.LOCK_HASH_KEY);
  }, 30_000);
});
