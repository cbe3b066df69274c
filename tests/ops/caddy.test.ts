// docker/caddy/Caddyfile: Caddy accepts it, and no log it writes carries the webhook secret.
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DOCKER_DIR, run, tool } from "./support/tools.ts";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "orderbot-caddy-"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe("reverse proxy", () => {
  /** Runs `caddy validate|adapt` on the Caddyfile, with a home of its own and a public host set. */
  const caddy = (subcommand: "validate" | "adapt") =>
    run(
      tool("caddy"),
      [subcommand, "--adapter", "caddyfile", "--config", path.join(DOCKER_DIR, "caddy/Caddyfile")],
      {
        env: {
          PATH: process.env.PATH,
          HOME: dir,
          XDG_DATA_HOME: dir,
          XDG_CONFIG_HOME: dir,
          PUBLIC_HOST: "shop.example.com",
        },
      },
    );

  it("Caddy accepts docker/caddy/Caddyfile", async () => {
    const result = await caddy("validate");
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout + result.stderr).toContain("Valid configuration");
  });

  it("the access log drops X-Telegram-Bot-Api-Secret-Token (whoever reads it could forge updates)", async () => {
    const result = await caddy("adapt");
    expect(result.code, result.stdout + result.stderr).toBe(0);
    const adapted = JSON.parse(result.stdout) as {
      logging?: { logs?: Record<string, { include?: string[]; encoder?: Encoder }> };
    };
    interface Encoder {
      format?: string;
      fields?: Record<string, { filter?: string }>;
    }
    // Every logger that writes access logs (a site with `log` gets one) filters the header out;
    // Go canonicalises header names, so the key is spelt exactly so.
    const accessLogs = Object.values(adapted.logging?.logs ?? {}).filter((log) =>
      (log.include ?? []).some((name) => name.startsWith("http.log.access")),
    );
    expect(accessLogs.length).toBeGreaterThan(0);
    for (const log of accessLogs) {
      expect(log.encoder?.format).toBe("filter");
      expect(log.encoder?.fields?.["request>headers>X-Telegram-Bot-Api-Secret-Token"]).toEqual({
        filter: "delete",
      });
    }
  });
});
