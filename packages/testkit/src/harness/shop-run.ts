import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { freePort } from "../services/redis.ts";
import {
  startFakeTelegram,
  type FakeTelegram,
  type FakeTelegramOptions,
  type SimulatedGroup,
  type SimulatedUser,
} from "@orderbot/fake-telegram";
import { Operator } from "./operator.ts";
import { spawnApp, type AppProcess } from "./processes.ts";
import { startRoundRobinProxy, type RoundRobinProxy } from "./proxy.ts";

export const WEBHOOK_PATH = "/telegram/webhook";

/** One bot or worker replica: a process that can die and be started again on the same ports. */
export interface AppInstance {
  name: string;
  kind: "bot" | "worker";
  /** The current process (a new one after `restart`). */
  readonly process: AppProcess;
  /** Its own port: the webhook (bot) or the health server (worker). */
  port: number;
  readyUrl: string;
  metricsUrl: string;
  /** Starts a new process after the last one ended (or stops it first), and waits until it is ready (retrying a failed start). */
  restart(): Promise<void>;
  /** Times this replica was started. */
  readonly starts: number;
}

export interface ShopRunOptions {
  databaseUrl: string;
  redisUrl: string;
  bots: number;
  workers: number;
  /** Lock and cache key prefix of this run. */
  lockNamespace: string;
  lockHashKey: string;
  /** Environment for every process (after the harness's own). */
  env?: Record<string, string>;
  botEnv?: Record<string, string>;
  workerEnv?: Record<string, string>;
  /** One log file per process here (appended across restarts); none when absent. */
  logDir?: string;
  kit?: FakeTelegramOptions;
  /** How long the proxy waits for a bot before answering 502 (ms). */
  proxyTimeoutMs?: number;
  /**
   * The source tree an instance runs, by name ("bot-1"): another release's (tests/upgrade);
   * none: this checkout.
   */
  sourceOf?: (name: string) => string | undefined;
  /** Called with each process's progress ("bot-1 ready"), for displays. */
  onEvent?: (line: string) => void;
}

/** The whole shop, running: fake Telegram, the proxy, bot and worker processes, an operator group. */
export interface ShopRun {
  kit: FakeTelegram;
  proxy: RoundRobinProxy;
  bots: AppInstance[];
  workers: AppInstance[];
  /** An owner of the shop, administrator of the bound operator group. */
  operator: Operator;
  env: Record<string, string>;
  /** Watches the webhook requests the proxy forwards: which bot gets which update. Returns an unsubscribe. */
  onForward(
    listener: (bot: AppInstance, update: { update_id: number } & Record<string, unknown>) => void,
  ): () => void;
  /**
   * Starts one more bot process with these variables over the usual ones (BOT_MODE=polling, say:
   * it deletes the webhook and polls, while the webhook bots stand by), and waits until it is ready.
   * It is stopped with the shop; not listed in `bots`.
   */
  addBot(env: Record<string, string>): Promise<AppInstance>;
  /** Stops every process (gracefully, then SIGKILL), the proxy and the kit. Safe to call twice. */
  stop(): Promise<void>;
}

const WEBHOOK_SECRET = "shop-run-webhook-secret_0123456789";

/**
 * Starts a shop for a run (chaos scenarios, the demo): the fake Telegram delivering by webhook to a
 * round-robin proxy in front of `bots` bot processes, `workers` worker processes, and an operator
 * group bound to the shop. The database must be migrated and seeded; Redis must answer.
 * Every process is a real `node` process, so kill -9 and SIGSTOP hit the app itself.
 */
export async function startShopRun(options: ShopRunOptions): Promise<ShopRun> {
  const say = options.onEvent ?? (() => undefined);
  const kit = await startFakeTelegram({
    webhook: { retryBaseMs: 200, retryMaxMs: 2_000, maxAttempts: 40 },
    ...options.kit,
  });
  const operator = kit.createUser({ firstName: "Operator", languageCode: "en" });
  const group = kit.createGroup({ title: "Shop operators", creator: operator, admins: [operator] });
  const botPorts = await Promise.all(Array.from({ length: options.bots }, () => freePort()));
  const listeners = new Set<Parameters<ShopRun["onForward"]>[0]>();
  const instances: AppInstance[] = [];
  const proxy = await startRoundRobinProxy(
    botPorts.map((port) => `http://127.0.0.1:${port}`),
    {
      timeoutMs: options.proxyTimeoutMs ?? 20_000,
      onForward: (index, body) => {
        if (listeners.size === 0) return;
        const bot = instances.find((i) => i.kind === "bot" && i.port === botPorts[index]);
        let update: { update_id: number } | undefined;
        try {
          update = JSON.parse(body.toString("utf8")) as { update_id: number };
        } catch {
          return;
        }
        if (bot && update) for (const listener of listeners) listener(bot, update);
      },
    },
  );
  const env: Record<string, string> = {
    NODE_ENV: "production",
    LOG_LEVEL: "warn",
    BOT_TOKEN: kit.token,
    TELEGRAM_API_ROOT: kit.apiRoot,
    DATABASE_URL: options.databaseUrl,
    REDIS_URL: options.redisUrl,
    LOCK_NAMESPACE: options.lockNamespace,
    LOCK_HASH_KEY: options.lockHashKey,
    OPERATOR_GROUP_ID: String(group.id),
    // The kit enforces no group limit unless a run turns its flood control on: a short window
    // keeps the operator's replies direct instead of queued behind the group's budget.
    GROUP_RATE_WINDOW_MS: "1000",
    ...options.env,
  };
  const logFile = (name: string) =>
    options.logDir ? path.join(options.logDir, `${name}.log`) : undefined;

  async function instance(
    kind: "bot" | "worker",
    index: number,
    port: number,
    extraEnv: Record<string, string> = {},
  ): Promise<AppInstance> {
    const name = `${kind}-${index + 1}`;
    const metricsPort = kind === "bot" ? await freePort() : port;
    const appEnv =
      kind === "bot"
        ? {
            ...env,
            BOT_MODE: "webhook",
            WEBHOOK_SECRET,
            PUBLIC_URL: proxy.url,
            PORT: String(port),
            METRICS_PORT: String(metricsPort),
            OWNER_IDS: String(operator.id),
            ...options.botEnv,
            ...extraEnv,
          }
        : { ...env, WORKER_PORT: String(port), WORKER_ID: name, ...options.workerEnv };
    const root = options.sourceOf?.(name);
    const spawn = () =>
      spawnApp({
        name,
        entry: `apps/${kind}/src/main.ts`,
        ...(root ? { root } : {}),
        env: appEnv,
        ...(logFile(name) ? { logFile: logFile(name)! } : {}),
      });
    let current = await spawn();
    let starts = 1;
    const readyUrl = `http://127.0.0.1:${port}/${kind === "bot" ? "healthz" : "readyz"}`;
    const app: AppInstance = {
      name,
      kind,
      get process() {
        return current;
      },
      port,
      readyUrl,
      metricsUrl: `http://127.0.0.1:${metricsPort}/metrics`,
      get starts() {
        return starts;
      },
      async restart() {
        // Like a supervisor: a process that exits while starting (PostgreSQL down, say) is started
        // again after a pause, a few times.
        for (let attempt = 1; ; attempt++) {
          await current.stop();
          current = await spawn();
          starts++;
          try {
            await current.waitReady(readyUrl, 60_000);
            return;
          } catch (error) {
            if (attempt >= 5) throw error;
            say(`${name} did not start (attempt ${attempt}); trying again`);
            await sleep(1_000 * attempt);
          }
        }
      },
    };
    instances.push(app);
    return app;
  }

  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await Promise.allSettled(instances.map((i) => i.process.stop(10_000)));
    await proxy.close();
    await kit.close();
  };

  try {
    const bots = await Promise.all(botPorts.map((port, i) => instance("bot", i, port)));
    const workerPorts = await Promise.all(
      Array.from({ length: options.workers }, () => freePort()),
    );
    const workers = await Promise.all(workerPorts.map((port, i) => instance("worker", i, port)));
    // Every bot calls setWebhook at start (with the proxy's URL); they wait for each other's 429s.
    await Promise.all(
      instances.map(async (i) => {
        await i.process.waitReady(i.readyUrl, 90_000);
        say(`${i.name} ready (pid ${i.process.pid})`);
      }),
    );
    await waitForWebhook(kit);
    await bindOperatorGroup(operator, group);
    return {
      kit,
      proxy,
      bots,
      workers,
      operator: new Operator(kit, operator, group),
      env,
      stop,
      async addBot(extra) {
        const index = instances.filter((i) => i.kind === "bot").length;
        const app = await instance("bot", index, await freePort(), extra);
        await app.process.waitReady(app.readyUrl, 90_000);
        say(`${app.name} ready (pid ${app.process.pid})`);
        return app;
      },
      onForward(listener) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function waitForWebhook(kit: FakeTelegram): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (kit.webhookInfo().url) return;
    await sleep(100);
  }
  throw new Error("no bot set a webhook");
}

/** The owner binds the group to the shop with /bind, as the README tells operators to. */
async function bindOperatorGroup(operator: SimulatedUser, group: SimulatedGroup): Promise<void> {
  const sent = await operator.send("/bind", { in: group });
  const outcome = await sent.handled();
  if (outcome.status !== "delivered")
    throw new Error(`/bind was not delivered: ${outcome.reason ?? outcome.status}`);
  const reply = group.lastMessage()?.text ?? "";
  if (!/operator group/i.test(reply)) throw new Error(`/bind failed: the bot answered "${reply}"`);
}
