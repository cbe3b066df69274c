// scripts/deploy against a stand-in docker CLI (no Docker engine runs here; support/fake-docker):
// a backup, then the migration, then the replicas replaced one at a time without ever fewer healthy
// bots than before; a release whose replica never becomes healthy is rolled back. And the
// compose healthcheck the script waits on counts a bot as ready only when PostgreSQL and Redis answer.
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { PROJECT_ROOT } from "@orderbot/testkit";
import { DOCKER_DIR, run } from "./support/tools.ts";

let dir: string;
let bin: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "orderbot-deploy-"));
  bin = path.join(dir, "bin");
  await mkdir(bin);
  await writeFile(
    path.join(bin, "docker"),
    `#!/bin/sh\nexec ${path.join(PROJECT_ROOT, "tests/ops/support/fake-docker")} "$@"\n`,
    { mode: 0o755 },
  );
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** A fresh stand-in engine running two bots and two workers of `image`. */
async function engine(name: string, image: string): Promise<string> {
  const state = path.join(dir, name);
  await mkdir(path.join(state, "c"), { recursive: true });
  for (const id of ["bot0001", "bot0002", "worker0001", "worker0002"])
    await writeFile(path.join(state, "c", id), `${id.replace(/\d+$/, "")} ${image}\n`);
  await writeFile(path.join(state, "next"), "3");
  return state;
}

const deploy = (state: string, args: string[]) =>
  run(path.join(PROJECT_ROOT, "scripts/deploy"), args, {
    cwd: PROJECT_ROOT,
    env: {
      PATH: `${bin}:${process.env.PATH}`,
      FAKE_DOCKER_STATE: state,
      DEPLOY_STATE: path.join(state, "deployed"),
      READY_TIMEOUT: "10",
    },
  });

/** service → images of its containers. */
async function containers(state: string): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const id of (await readdir(path.join(state, "c"))).sort()) {
    const [service, image] = (await readFile(path.join(state, "c", id), "utf8")).trim().split(" ");
    (out[service!] ??= []).push(image!);
  }
  return out;
}

const log = async (state: string) =>
  (await readFile(path.join(state, "log"), "utf8")).trim().split("\n");
const fewestHealthyBots = (lines: string[]) =>
  Math.min(...lines.map((l) => Number(/healthy bots: (\d+)$/.exec(l)?.[1])));

describe("scripts/deploy", () => {
  it("backs up, migrates, then replaces the replicas one at a time; --rollback goes back", async () => {
    const state = await engine("good", "orderbot:1.4.0");
    const result = await deploy(state, ["registry.example.com/orderbot:1.5.0"]);
    expect(result.code, result.stderr).toBe(0);
    const next = "registry.example.com/orderbot:1.5.0";
    expect(await containers(state)).toEqual({ bot: [next, next], worker: [next, next] });
    const lines = await log(state);
    expect(lines.findIndex((l) => l.startsWith("exec "))).toBeLessThan(
      lines.findIndex((l) => l.startsWith(`run ${next} `)),
    );
    expect(lines.findIndex((l) => l.startsWith(`run ${next} `))).toBeLessThan(
      lines.findIndex((l) => l.startsWith("run  --rm grants")),
    );
    expect(lines.findIndex((l) => l.startsWith("run  --rm grants"))).toBeLessThan(
      lines.findIndex((l) => l.startsWith("start ")),
    );
    expect(fewestHealthyBots(lines)).toBe(2);

    const back = await deploy(state, ["--rollback"]);
    expect(back.code, back.stderr).toBe(0);
    const old = "orderbot:1.4.0";
    expect(await containers(state)).toEqual({ bot: [old, old], worker: [old, old] });
  });

  it("rolls back when a new replica does not become healthy", async () => {
    const state = await engine("broken", "orderbot:1.4.0");
    const result = await deploy(state, ["registry.example.com/orderbot:1.5.0-broken"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("rolled back to orderbot:1.4.0");
    const old = "orderbot:1.4.0";
    expect(await containers(state)).toEqual({ bot: [old, old], worker: [old, old] });
    expect(fewestHealthyBots(await log(state))).toBe(2);
  });
});

const services = parse(await readFile(path.join(DOCKER_DIR, "services.yaml"), "utf8")) as {
  services: { bot: { healthcheck: { test: string[] } } };
};

describe("scripts/deploy, when only the workers fail", () => {
  it("takes the bots back one at a time too, never below their healthy count", async () => {
    const state = await engine("worker-broken", "orderbot:1.4.0");
    const result = await deploy(state, ["registry.example.com/orderbot:1.5.0-broken-worker"]);
    expect(result.code).toBe(1);
    const old = "orderbot:1.4.0";
    expect(await containers(state)).toEqual({ bot: [old, old], worker: [old, old] });
    const lines = await log(state);
    expect(lines.some((l) => l.startsWith("start bot") && l.includes("1.5.0-broken-worker"))).toBe(
      true,
    );
    expect(fewestHealthyBots(lines)).toBe(2);
  });
});

describe("the bot's compose healthcheck", () => {
  const probe = services.services.bot.healthcheck.test.at(-1)!;

  /** Exit code of the probe against a /readyz answering `body`. */
  async function probeExit(body: object): Promise<number> {
    const server = createServer((_, res) => res.writeHead(200).end(JSON.stringify(body)));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as { port: number };
    try {
      const script = probe.replace("127.0.0.1:8080", `127.0.0.1:${port}`);
      return await promisify(execFile)(process.execPath, ["-e", script]).then(
        () => 0,
        (e: { code: number }) => e.code,
      );
    } finally {
      server.close();
    }
  }

  it("is healthy when PostgreSQL and Redis answer, not while the bot runs degraded", async () => {
    expect(probe).toContain("/readyz");
    expect(await probeExit({ ok: true, database: "ok", redis: "ok", degraded: false })).toBe(0);
    expect(await probeExit({ ok: true, database: "ok", redis: "down", degraded: true })).toBe(1);
  });
});
