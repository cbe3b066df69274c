import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from "fastify";
import type { Registry } from "prom-client";
import { secretMatches, type Logger } from "@orderbot/platform";

export interface HealthServerDeps {
  /** Both must answer for /readyz to say ready. */
  checks: { database: () => Promise<unknown>; redis: () => Promise<unknown> };
  registry: Registry;
  /** Run before each scrape (the backlog gauges read the database). */
  beforeScrape?: () => Promise<void>;
  logger: Logger;
  /** When set, /metrics needs `Authorization: Bearer <token>`; when null it is open (keep the port private). */
  metricsToken: string | null;
}

/** The worker's HTTP side: /healthz (alive), /readyz (PostgreSQL and Redis answer), /metrics. */
export function createHealthServer(deps: HealthServerDeps): FastifyInstance {
  const app = Fastify({
    loggerInstance: deps.logger.child({ component: "http" }) as FastifyBaseLogger,
    logController: new LogController({ disableRequestLogging: true }),
    return503OnClosing: true,
  });

  app.get("/healthz", async () => ({ ok: true }));

  app.get("/readyz", async (_request, reply) => {
    const results = await Promise.allSettled([deps.checks.database(), deps.checks.redis()]);
    const [database, redis] = results.map((r) => (r.status === "fulfilled" ? "ok" : "down"));
    const ready = database === "ok" && redis === "ok";
    return reply.code(ready ? 200 : 503).send({ ok: ready, database, redis });
  });

  app.get("/metrics", async (request, reply) => {
    if (deps.metricsToken !== null) {
      const header = request.headers.authorization ?? "";
      if (!secretMatches(header.replace(/^Bearer /, ""), deps.metricsToken))
        return reply.code(401).send({ ok: false });
    }
    await deps.beforeScrape?.();
    return reply.type(deps.registry.contentType).send(await deps.registry.metrics());
  });

  app.setErrorHandler((error: { statusCode?: number }, _request, reply) => {
    const status =
      error.statusCode && error.statusCode >= 400 && error.statusCode < 500
        ? error.statusCode
        : 500;
    void reply
      .code(status)
      .send({ ok: false, error: status === 500 ? "internal error" : "bad request" });
  });

  return app;
}
