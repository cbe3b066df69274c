// docker/caddy/Caddyfile: Caddy accepts it, and no log it writes carries the webhook secret.
import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { setTimeout as sleep } from "node:timers/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "@orderbot/testkit";
import { DOCKER_DIR, run, tool } from "./support/tools.ts";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "orderbot-caddy-"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** A home of Caddy's own: it keeps certificates and its autosave there. */
const caddyEnv = () => ({
  PATH: process.env.PATH,
  HOME: dir,
  XDG_DATA_HOME: dir,
  XDG_CONFIG_HOME: dir,
});

/** Waits until `condition` holds (errors count as not yet), for at most 20 s. */
async function until(condition: () => boolean | Promise<boolean>): Promise<void> {
  for (let tries = 0; tries < 200; tries++) {
    if (
      await Promise.resolve()
        .then(condition)
        .catch(() => false)
    )
      return;
    await sleep(100);
  }
  throw new Error("condition not met within 20 s");
}

describe("reverse proxy", () => {
  /** Runs `caddy validate|adapt` on the Caddyfile, with a home of its own and a public host set. */
  const caddy = (subcommand: "validate" | "adapt") =>
    run(
      tool("caddy"),
      [subcommand, "--adapter", "caddyfile", "--config", path.join(DOCKER_DIR, "caddy/Caddyfile")],
      { env: { ...caddyEnv(), PUBLIC_HOST: "shop.example.com" } },
    );

  it("Caddy accepts docker/caddy/Caddyfile", async () => {
    const result = await caddy("validate");
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout + result.stderr).toContain("Valid configuration");
  });

  it("every logger, the access log and the default (error) log, drops X-Telegram-Bot-Api-Secret-Token", async () => {
    const result = await caddy("adapt");
    expect(result.code, result.stdout + result.stderr).toBe(0);
    interface Encoder {
      format?: string;
      fields?: Record<string, { filter?: string }>;
    }
    const adapted = JSON.parse(result.stdout) as {
      logging?: { logs?: Record<string, { include?: string[]; encoder?: Encoder }> };
    };
    // Go canonicalises header names: the key is spelt exactly so.
    const logs = adapted.logging?.logs ?? {};
    expect(Object.keys(logs)).toContain("default");
    expect(Object.values(logs).some((log) => log.include?.[0]?.startsWith("http.log.access"))).toBe(
      true,
    );
    for (const [name, log] of Object.entries(logs)) {
      expect(log.encoder?.format, name).toBe("filter");
      expect(
        log.encoder?.fields?.["request>headers>X-Telegram-Bot-Api-Secret-Token"],
        name,
      ).toEqual({ filter: "delete" });
    }
  });

  it("a webhook request Caddy itself answers 5xx (no bot up) leaves the secret in no log", async () => {
    const secret = "caddy_log_probe_secret_0123456789abcdef";
    const [site, health] = [await freePort(), await freePort()];
    // Another health port (tests run side by side), and a shorter wait for a bot that never comes.
    const caddyfile = (await readFile(path.join(DOCKER_DIR, "caddy/Caddyfile"), "utf8"))
      .replace(/^:8081 \{/m, `:${health} {`)
      .replace("lb_try_duration 5s", "lb_try_duration 500ms");
    await writeFile(path.join(dir, "Caddyfile"), caddyfile);
    const child = spawn(tool("caddy"), ["run", "--adapter", "caddyfile", "--config", "Caddyfile"], {
      cwd: dir,
      env: { ...caddyEnv(), PUBLIC_HOST: `http://127.0.0.1:${site}` },
    });
    let logs = "";
    child.stdout.on("data", (chunk: Buffer) => (logs += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (logs += chunk.toString()));
    try {
      await until(async () => (await fetch(`http://127.0.0.1:${health}/healthz`)).ok);
      const response = await fetch(`http://127.0.0.1:${site}/telegram/webhook`, {
        method: "POST",
        headers: { "X-Telegram-Bot-Api-Secret-Token": secret, "content-type": "application/json" },
        body: "{}",
      });
      expect(response.status).toBeGreaterThanOrEqual(500);
      // Only POST is forwarded: a GET never reaches (and waits for) a bot.
      const get = await fetch(`http://127.0.0.1:${site}/telegram/webhook`);
      expect(get.status).toBe(404);
      // Both entries of that request written: the error log's and the access log's.
      await until(() => /http\.log\.error/.test(logs) && /http\.log\.access/.test(logs));
      expect(logs).not.toContain(secret);
    } finally {
      child.kill();
    }
  });
});
