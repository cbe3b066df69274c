// docker/: every compose file parses (`docker-compose config` needs no engine), each stack has the
// services it promises, secrets are required rather than defaulted, and the proxy configuration
// is one Caddy accepts.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DOCKER_DIR, run, tool } from "./support/tools.ts";

const SECRETS = {
  BOT_TOKEN: "123456:test-token-not-real-000000000000",
  WEBHOOK_SECRET: "test_webhook_secret_0123456789abcdef",
  LOCK_HASH_KEY: "test-hash-key-0123456789",
  POSTGRES_PASSWORD: "test-postgres-password",
  POSTGRES_OWNER_PASSWORD: "test-owner-password",
  POSTGRES_APP_PASSWORD: "test-app-password",
  REDIS_PASSWORD: "test-redis-password",
  GRAFANA_ADMIN_PASSWORD: "test-grafana-password",
  PUBLIC_URL: "https://shop.example.com",
  PUBLIC_HOST: "shop.example.com",
};

let emptyEnvFile: string;
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "orderbot-compose-"));
  emptyEnvFile = path.join(dir, "empty.env");
  await writeFile(emptyEnvFile, "");
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** docker-compose with only the given variables: neither the caller's environment nor a local docker/.env leaks in. */
function compose(file: string, args: string[], variables: Record<string, string> = SECRETS) {
  const env = { PATH: process.env.PATH, HOME: dir, ...variables };
  return run(tool("docker-compose"), ["--env-file", emptyEnvFile, "-f", file, ...args], { env });
}

/** The block of one service in `docker-compose config` output. */
function serviceBlock(config: string, service: string): string {
  const start = config.indexOf(`\n  ${service}:\n`);
  if (start < 0) throw new Error(`service ${service} not in the configuration`);
  const rest = config.slice(start + 1);
  const end = rest.slice(1).search(/\n {2}[a-z0-9-]+:\n|\n[a-z]/);
  return end < 0 ? rest : rest.slice(0, end + 1);
}

/** What every stack runs; each adds the servers of its Redis topology. */
const COMMON = ["bot", "grafana", "migrate", "postgres", "prometheus", "proxy", "redis", "worker"];

const STACKS = {
  "compose.yaml": COMMON,
  "compose.sentinel.yaml": [...COMMON, "redis-replica", "sentinel-1", "sentinel-2", "sentinel-3"],
  "compose.cluster.yaml": [
    ...COMMON,
    "redis-2",
    "redis-3",
    "redis-4",
    "redis-5",
    "redis-6",
    "redis-cluster-init",
  ],
};

describe("compose files", () => {
  it.each([...Object.keys(STACKS), "services.yaml"])(
    "docker-compose -f %s config -q succeeds",
    async (file) => {
      const result = await compose(file, ["config", "-q"]);
      expect(result.code, result.stderr).toBe(0);
    },
  );

  it.each(Object.entries(STACKS))("%s runs the services it promises", async (file, services) => {
    const result = await compose(file, ["config", "--services"]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.trim().split("\n").sort()).toEqual([...services].sort());
  });

  it.each(Object.keys(STACKS))(
    "%s: two bot and two worker replicas start after the migration succeeded",
    async (file) => {
      const { stdout } = await compose(file, ["config"]);
      for (const service of ["bot", "worker"]) {
        const block = serviceBlock(stdout, service);
        expect(block).toMatch(/replicas: 2\n/);
        expect(block).toMatch(/migrate:\n\s+condition: service_completed_successfully\n/);
        expect(block).toContain("read_only: true");
      }
      expect(serviceBlock(stdout, "migrate")).toContain("target: migrate");
      expect(serviceBlock(stdout, "proxy")).toContain("/etc/caddy/Caddyfile");
    },
  );

  it("the Sentinel and Cluster stacks point the apps at their topology", async () => {
    const sentinel = serviceBlock(
      (await compose("compose.sentinel.yaml", ["config"])).stdout,
      "bot",
    );
    expect(sentinel).toContain(
      "REDIS_SENTINELS: sentinel-1:26379,sentinel-2:26379,sentinel-3:26379",
    );
    expect(sentinel).toContain("REDIS_SENTINEL_MASTER: orderbot");
    const cluster = serviceBlock(
      (await compose("compose.cluster.yaml", ["config"])).stdout,
      "worker",
    );
    expect(cluster).toContain("REDIS_CLUSTER_NODES: redis:6379,redis-2:6379,redis-3:6379");
  });

  it("compose.yaml: migrate runs as the owner role, the apps as the DML-only role, and Redis needs a password the apps carry", async () => {
    const { stdout } = await compose("compose.yaml", ["config"]);
    expect(serviceBlock(stdout, "migrate")).toContain(
      "DATABASE_URL: postgresql://orderbot_owner:test-owner-password@postgres:5432/orderbot",
    );
    for (const service of ["bot", "worker"]) {
      const block = serviceBlock(stdout, service);
      expect(block).toContain(
        "DATABASE_URL: postgresql://orderbot_app:test-app-password@postgres:5432/orderbot",
      );
      expect(block).toContain("REDIS_URL: redis://:test-redis-password@redis:6379");
    }
    // Nothing but the postgres image's own first start uses the superuser.
    expect(stdout).not.toMatch(/postgresql:\/\/postgres:/);
    const postgres = serviceBlock(stdout, "postgres");
    expect(postgres).toMatch(/init-roles\.sh:\/docker-entrypoint-initdb\.d\/10-roles\.sh:ro/);
    const redis = serviceBlock(stdout, "redis");
    expect(redis).toMatch(/- --requirepass\n\s+- test-redis-password\n/);
    expect(redis).toMatch(/- --maxmemory\n\s+- 256mb\n/);
  });

  it("the Sentinel and Cluster stacks: every data node requires the password, the apps carry it", async () => {
    const sentinel = (await compose("compose.sentinel.yaml", ["config"])).stdout;
    for (const node of ["redis", "redis-replica"]) {
      const block = serviceBlock(sentinel, node);
      expect(block).toMatch(/- --requirepass\n\s+- test-redis-password\n/);
      expect(block).toMatch(/- --masterauth\n\s+- test-redis-password\n/);
    }
    expect(serviceBlock(sentinel, "sentinel-1")).toContain(
      "sentinel auth-pass orderbot $$REDIS_PASSWORD",
    );
    const cluster = (await compose("compose.cluster.yaml", ["config"])).stdout;
    for (const node of ["redis", "redis-2", "redis-6"]) {
      const block = serviceBlock(cluster, node);
      expect(block).toContain('--requirepass "$$REDISCLI_AUTH"');
      expect(block).toContain("REDISCLI_AUTH: test-redis-password");
    }
    for (const stack of [sentinel, cluster])
      for (const service of ["bot", "worker"])
        expect(serviceBlock(stack, service)).toContain(
          "REDIS_URL: redis://:test-redis-password@redis:6379",
        );
  });

  it("refuses to start without the secrets, naming the one that is missing", async () => {
    const { BOT_TOKEN: _omitted, ...withoutToken } = SECRETS;
    const result = await compose("compose.yaml", ["config", "-q"], withoutToken);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain("set BOT_TOKEN in docker/.env");
  });
});

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
