// docker/: every compose file parses (`docker-compose config` needs no engine), each stack has the
// services it promises, secrets are required rather than defaulted, and every setting of the two
// env examples reaches the process that reads it. Each stack is rendered once, in beforeAll.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { botConfigSchema, parseBotConfig } from "@orderbot/bot";
import { configSchemaDoc } from "@orderbot/platform";
import { parseWorkerConfig, workerConfigSchema } from "@orderbot/worker";
import { renderCompose, stageDockerDir, type Rendered } from "./support/compose-render.ts";
import { containerProblems } from "./support/container-rules.ts";
import {
  envFile,
  exampleSettings,
  probeValue,
  settingProblems,
  unusedVariables,
} from "./support/settings-reach.ts";
import { DOCKER_DIR } from "./support/tools.ts";

/** docker/.env.example: what compose fills in, each set to a value the test can find again. */
const COMPOSE_SETTINGS = exampleSettings(
  await readFile(path.join(DOCKER_DIR, ".env.example"), "utf8"),
);
const VARIABLES = Object.fromEntries(COMPOSE_SETTINGS.map((s) => [s.name, probeValue(s.name)]));
const probe = (name: string) => probeValue(name);

/** docker/app.env.example with every line set, the secrets filled in as an operator would. */
const FILLED: Record<string, string> = {
  BOT_TOKEN: "123456:test-token-not-real-000000000000",
  WEBHOOK_SECRET: "test_webhook_secret_0123456789abcdef",
  LOCK_HASH_KEY: "test-hash-key-0123456789",
  PROVIDER_TOKEN: "284685063:TEST:not-real",
};
const APP_SETTINGS = exampleSettings(
  await readFile(path.join(DOCKER_DIR, "app.env.example"), "utf8"),
).map((s) => ({ name: s.name, value: FILLED[s.name] ?? s.value }));

const SCHEMAS = {
  bot: configSchemaDoc(botConfigSchema),
  worker: configSchemaDoc(workerConfigSchema),
};

/** What every stack runs; each adds the servers of its Redis topology. */
const COMMON = [
  ...["alertmanager", "backup", "blackbox-exporter", "bot", "grafana", "grants", "migrate"],
  ...["node-exporter", "postgres", "prometheus", "proxy", "proxy-data-owner", "redis", "worker"],
];
const STACKS: Record<string, string[]> = {
  "compose.yaml": COMMON,
  "compose.sentinel.yaml": [...COMMON, "redis-replica", "sentinel-1", "sentinel-2", "sentinel-3"],
  "compose.cluster.yaml": [
    ...COMMON,
    ...["redis-2", "redis-3", "redis-4", "redis-5", "redis-6", "redis-cluster-init"],
  ],
};

let root: string;
let docker: string;
const rendered: Record<string, Rendered> = {};
beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "orderbot-compose-"));
  docker = await stageDockerDir(root, envFile(APP_SETTINGS));
  for (const file of [...Object.keys(STACKS), "services.yaml"])
    rendered[file] = await renderCompose(docker, file, VARIABLES);
}, 60_000);
afterAll(() => rm(root, { recursive: true, force: true }));

const stack = (file: string) => rendered[file]!;
const service = (file: string, name: string) => stack(file).services[name]!;

describe("compose files", () => {
  it.each([...Object.keys(STACKS), "services.yaml"])("docker-compose -f %s config", (file) => {
    expect(stack(file).code, stack(file).stderr).toBe(0);
  });

  it.each(Object.entries(STACKS))("%s runs the services it promises", (file, services) => {
    expect(Object.keys(stack(file).services).sort()).toEqual([...services].sort());
  });

  it.each(Object.keys(STACKS))(
    "%s: two bot and two worker replicas start after the migration succeeded",
    (file) => {
      for (const name of ["bot", "worker"]) {
        const app = service(file, name);
        expect(app.deploy?.replicas).toBe(2);
        expect(app.depends_on).toMatchObject({
          migrate: { condition: "service_completed_successfully" },
          grants: { condition: "service_completed_successfully" },
        });
        expect(app.read_only).toBe(true);
      }
      expect(service(file, "migrate").build).toMatchObject({ target: "migrate" });
      expect(JSON.stringify(service(file, "proxy").volumes)).toContain("/etc/caddy/Caddyfile");
    },
  );

  it("the Sentinel and Cluster stacks point the apps at their topology", () => {
    expect(service("compose.sentinel.yaml", "bot").environment).toMatchObject({
      REDIS_SENTINELS: "sentinel-1:26379,sentinel-2:26379,sentinel-3:26379",
      REDIS_SENTINEL_MASTER: "orderbot",
    });
    expect(service("compose.cluster.yaml", "worker").environment).toMatchObject({
      REDIS_CLUSTER_NODES: "redis:6379,redis-2:6379,redis-3:6379",
    });
  });

  it("compose.yaml: migrate runs as the owner role, the apps as the DML-only role, and Redis needs a password the apps carry", () => {
    const [owner, app, redis] = ["OWNER", "APP", "REDIS"].map((n) =>
      probe(n === "REDIS" ? "REDIS_PASSWORD" : `POSTGRES_${n}_PASSWORD`),
    );
    const redisApp = probe("REDIS_APP_PASSWORD");
    expect(service("compose.yaml", "migrate").environment?.DATABASE_URL).toBe(
      `postgresql://orderbot_owner:${owner}@postgres:5432/orderbot`,
    );
    for (const name of ["bot", "worker"])
      expect(service("compose.yaml", name).environment).toMatchObject({
        DATABASE_URL: `postgresql://orderbot_app:${app}@postgres:5432/orderbot`,
        REDIS_URL: `redis://orderbot:${redisApp}@redis:6379`,
      });
    // Nothing but the postgres image's own first start uses the superuser.
    expect(stack("compose.yaml").text).not.toMatch(/postgresql:\/\/postgres:/);
    const postgres = service("compose.yaml", "postgres");
    expect(JSON.stringify(postgres.volumes)).toMatch(
      /init-roles\.sh:\/docker-entrypoint-initdb\.d\/10-roles\.sh:ro/,
    );
    expect(JSON.stringify(postgres.volumes)).toContain(
      "no-remote-superuser.sh:/docker-entrypoint-initdb.d/20-hba.sh:ro",
    );
    // Over TCP: while the first start initialises, the server answers on its socket only.
    expect(JSON.stringify(postgres.healthcheck?.test)).toContain("pg_isready -h 127.0.0.1");
    const command = service("compose.yaml", "redis").command as string[];
    expect(command.join(" ")).toContain(`--requirepass ${redis}`);
    expect(command.join(" ")).toContain("--maxmemory 256mb");
  });

  it("the Sentinel and Cluster stacks: every data node requires the password, the apps carry it", () => {
    const redis = probe("REDIS_PASSWORD");
    for (const node of ["redis", "redis-replica"]) {
      const command = (service("compose.sentinel.yaml", node).command as string[]).join(" ");
      expect(command).toContain(`--requirepass ${redis}`);
      expect(command).toContain(`--masterauth ${redis}`);
    }
    expect(JSON.stringify(service("compose.sentinel.yaml", "sentinel-1").command)).toContain(
      "sentinel auth-pass orderbot $$REDIS_PASSWORD",
    );
    // The sentinels take a password of their own, and keep what they learn across a restart.
    for (const node of ["sentinel-1", "sentinel-2", "sentinel-3"]) {
      const block = service("compose.sentinel.yaml", node);
      expect(JSON.stringify(block.command)).toContain("requirepass $$REDIS_SENTINEL_PASSWORD");
      expect(block.environment?.REDIS_SENTINEL_PASSWORD).toBe(probe("REDIS_SENTINEL_PASSWORD"));
      expect(block.volumes).toEqual([`${node}:/data:rw`]);
    }
    for (const name of ["bot", "worker"])
      expect(service("compose.sentinel.yaml", name).environment?.REDIS_SENTINEL_PASSWORD).toBe(
        probe("REDIS_SENTINEL_PASSWORD"),
      );
    for (const node of ["redis", "redis-2", "redis-6"]) {
      const block = service("compose.cluster.yaml", node);
      expect(JSON.stringify(block.command)).toContain('--requirepass \\"$$REDISCLI_AUTH\\"');
      expect(block.environment?.REDISCLI_AUTH).toBe(redis);
    }
    for (const file of ["compose.sentinel.yaml", "compose.cluster.yaml"])
      for (const name of ["bot", "worker"])
        expect(service(file, name).environment?.REDIS_URL).toBe(
          `redis://orderbot:${probe("REDIS_APP_PASSWORD")}@redis:6379`,
        );
  });

  it("refuses to start without the secrets, naming the one that is missing", async () => {
    const { POSTGRES_APP_PASSWORD: _omitted, ...without } = VARIABLES;
    const result = await renderCompose(docker, "compose.yaml", without, ["config", "-q"]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain("set POSTGRES_APP_PASSWORD in docker/.env");
  });
});

describe("containers", () => {
  it.each(Object.keys(STACKS))(
    "%s: every container has limits, a healthcheck, rotated logs and no capability it does not need",
    (file) => {
      expect(containerProblems(stack(file).services)).toEqual([]);
    },
  );

  it("the apps' heap is capped below their memory limit", () => {
    for (const name of ["bot", "worker", "migrate"]) {
      const app = service("compose.yaml", name);
      const heap = Number(
        /--max-old-space-size=(\d+)/.exec(String(app.environment?.NODE_OPTIONS))?.[1],
      );
      const limit = Number(/^(\d+)M$/i.exec(app.deploy?.resources?.limits?.memory ?? "")?.[1]);
      expect(heap, name).toBeGreaterThan(0);
      expect(heap, name).toBeLessThan(limit * 0.8);
    }
  });
});

describe("networks", () => {
  it("Grafana shares a network with Prometheus only", () => {
    const on = (name: string) => Object.keys(service("compose.yaml", name).networks as object);
    expect(on("grafana")).toEqual(["monitoring"]);
    for (const [name] of Object.entries(stack("compose.yaml").services).filter(
      ([name]) => name !== "grafana" && name !== "prometheus",
    ))
      expect(JSON.stringify(service("compose.yaml", name).networks ?? {}), name).not.toContain(
        "monitoring",
      );
  });
});

describe("the proxy, the one container facing the internet", () => {
  it("runs as a user, without capabilities, on a read-only filesystem", () => {
    const proxy = service("compose.yaml", "proxy");
    expect(proxy.user).toBe("1000:1000");
    expect(proxy.read_only).toBe(true);
    expect(proxy.cap_drop).toEqual(["ALL"]);
    expect(proxy.cap_add).toBeUndefined();
    expect(proxy.security_opt).toContain("no-new-privileges:true");
    expect(proxy.depends_on).toMatchObject({
      "proxy-data-owner": { condition: "service_completed_successfully" },
    });
  });
});

describe("settings (docker/.env.example, docker/app.env.example)", () => {
  it.each(Object.keys(STACKS))(
    "%s: every setting of app.env.example reaches, as written, each app whose schema reads it",
    (file) => {
      expect(settingProblems(APP_SETTINGS, stack(file).services, SCHEMAS)).toEqual([]);
    },
  );

  it("the bot and the worker accept the environment compose gives them (no crash loop)", () => {
    const env = (name: string) =>
      Object.fromEntries(
        Object.entries(service("compose.yaml", name).environment ?? {}).map(([k, v]) => [
          k,
          String(v ?? ""),
        ]),
      );
    expect(() => parseBotConfig(env("bot"))).not.toThrow();
    expect(() => parseWorkerConfig(env("worker"))).not.toThrow();
  });

  it("every variable of .env.example is used by some service of some stack", () => {
    const texts = Object.values(rendered).map((r) => r.text);
    expect(unusedVariables(COMPOSE_SETTINGS, texts)).toEqual([]);
  });
});
