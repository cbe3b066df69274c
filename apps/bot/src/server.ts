import Fastify, { LogController, type FastifyPluginAsync } from "fastify";
import type { Registry } from "prom-client";
import { secretMatches, type Logger } from "@orderbot/platform";
import { parseUpdate } from "./updates/parse.ts";
import type { ProcessUpdate } from "./updates/pipeline.ts";
import { createRejectionReporter } from "./webhook-rejections.ts";

export const WEBHOOK_PATH = "/telegram/webhook";
const SECRET_HEADER = "x-telegram-bot-api-secret-token";

export interface ServerDeps {
  processUpdate: ProcessUpdate;
  /**
   * /readyz: PostgreSQL must answer. Redis is reported but not required: while it is down the bot
   * still serves by each lock kind's policy (placements refused with a message, payments on the
   * database's guarantees), so a load balancer must not take every bot out.
   */
  checks: { database: () => Promise<unknown>; redis: () => Promise<unknown> };
  registry: Registry;
  logger: Logger;
  /** The secret Telegram sends with every update; null serves no webhook (polling mode). */
  webhookSecret: string | null;
  bodyLimit: number;
  /** When set, /metrics needs `Authorization: Bearer <token>`; when null, it is not served here. */
  metricsToken: string | null;
  /** Refused webhook requests are all counted but warned about at most once per interval. */
  rejectionWarning?: { intervalMs: number; now?: () => number };
}

/**
 * The HTTP side of the bot: the webhook, health, readiness and metrics. The update is processed
 * inline, and the response sent after it finishes: Telegram then sends one update per chat at a
 * time and re-delivers after any non-2xx, which gives per-chat ordering and at-least-once delivery.
 */
export function createServer(deps: ServerDeps) {
  const app = Fastify({
    loggerInstance: deps.logger.child({ component: "http" }),
    // Requests are not logged: the pipeline logs each update once, with its id.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: deps.bodyLimit,
    return503OnClosing: true,
  });

  // Graceful close: requests in flight finish, then their connections close instead of idling
  // until the keep-alive timeout (Node only closes the connections idle at the moment of close).
  let closing = false;
  app.addHook("preClose", async () => {
    closing = true;
  });
  app.addHook("onSend", async (_request, reply) => {
    if (closing) void reply.header("connection", "close");
  });

  if (deps.webhookSecret !== null)
    void app.register(webhook, {
      processUpdate: deps.processUpdate,
      secret: deps.webhookSecret,
      reject: createRejectionReporter({
        registry: deps.registry,
        logger: deps.logger.child({ component: "webhook" }),
        intervalMs: deps.rejectionWarning?.intervalMs ?? 60_000,
        now: deps.rejectionWarning?.now,
      }),
    });

  app.get("/healthz", async () => ({ ok: true }));

  app.get("/readyz", async (_request, reply) => {
    const results = await Promise.allSettled([deps.checks.database(), deps.checks.redis()]);
    const [database, redis] = results.map((r) => (r.status === "fulfilled" ? "ok" : "down"));
    const ready = database === "ok";
    return reply
      .code(ready ? 200 : 503)
      .send({ ok: ready, database, redis, degraded: redis !== "ok" });
  });

  if (deps.metricsToken !== null) {
    const token = deps.metricsToken;
    app.get("/metrics", async (request, reply) => {
      const header = request.headers.authorization ?? "";
      if (!secretMatches(header.replace(/^Bearer /, ""), token))
        return reply.code(401).send({ ok: false });
      return reply.type(deps.registry.contentType).send(await deps.registry.metrics());
    });
  }

  // Fastify answers malformed JSON with 400 and oversized bodies with 413; keep the bodies terse.
  app.setErrorHandler((error: { statusCode?: number }, _request, reply) => {
    const status =
      error.statusCode && error.statusCode >= 400 && error.statusCode < 500
        ? error.statusCode
        : 500;
    void reply.code(status).send({
      ok: false,
      error:
        status === 413 ? "body too large" : status === 400 ? "malformed request" : "internal error",
    });
  });

  return app;
}

/**
 * POST /telegram/webhook. The secret is checked before the body is read: a caller without it gets
 * nothing parsed, run or stored. Then 400 for a body that is not an update, 503 while another
 * replica runs the same update, 500 when it failed (Telegram re-delivers), 200 otherwise.
 */
const webhook: FastifyPluginAsync<{
  processUpdate: ProcessUpdate;
  secret: string;
  reject: ReturnType<typeof createRejectionReporter>;
}> = async (app, { processUpdate, secret, reject }) => {
  app.post(WEBHOOK_PATH, {
    onRequest: async (request, reply) => {
      const header = request.headers[SECRET_HEADER];
      if (!secretMatches(header, secret)) {
        reject(request, header === undefined || header === "" ? "missing" : "wrong");
        await reply.code(401).send({ ok: false, error: "unauthorized" });
      }
    },
    handler: async (request, reply) => {
      const update = parseUpdate(request.body);
      if (!update)
        return reply
          .code(400)
          .send({ ok: false, error: "expected an update with an integer update_id" });
      try {
        const outcome = await processUpdate(update);
        if (outcome === "in-progress")
          return reply
            .code(503)
            .header("retry-after", "5")
            .send({ ok: false, error: "in progress" });
        return reply.code(200).send({ ok: true });
      } catch {
        // Already logged once, with the update id, by the pipeline.
        return reply.code(500).send({ ok: false, error: "failed; will be retried" });
      }
    },
  });
};

/** A bare server exposing only /metrics, for METRICS_PORT (keep that port private). */
export function createMetricsServer(registry: Registry, logger: Logger) {
  const app = Fastify({
    loggerInstance: logger.child({ component: "metrics" }),
    logController: new LogController({ disableRequestLogging: true }),
  });
  app.get("/metrics", async (_request, reply) =>
    reply.type(registry.contentType).send(await registry.metrics()),
  );
  return app;
}

export type BotServer = ReturnType<typeof createServer>;
