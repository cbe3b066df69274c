// Where one update's CPU goes in a bot, by module: the categories of the webhook bench's profile
// table, tried in this order on each frame (innermost first; see the testkit's bench/profiler.ts).
import { IOREDIS, PG, PRISMA, type Category } from "@orderbot/testkit";

const has =
  (...parts: string[]) =>
  (url: string) =>
    parts.some((part) => url.includes(part));

export const BOT_CATEGORIES: Category[] = [
  { name: "dedupe (processed-updates record)", match: has("/packages/db/src/processed-updates") },
  { name: "rate limit (the bot's limiter)", match: has("/apps/bot/src/updates/rate-limit") },
  { name: "lock (@orderbot/lock)", match: has("/packages/lock/src/") },
  { name: "i18n (@grammyjs/i18n, @fluent)", match: has("/@grammyjs/i18n/", "/@fluent/") },
  PRISMA,
  PG,
  IOREDIS,
  {
    name: "send (grammY's API client, node-fetch)",
    match: has("/grammy/out/core/client", "/grammy/out/shim", "/node-fetch/", "/abort-controller/"),
  },
  {
    name: "HTTP server (Fastify)",
    match: has(
      "/fastify/",
      "/find-my-way/",
      "/avvio/",
      "/light-my-request/",
      "/secure-json-parse/",
    ),
  },
  { name: "grammY (middleware, context)", match: has("/grammy/") },
  { name: "logging (pino)", match: has("/pino/", "/pino-std-serializers/", "/sonic-boom/") },
  { name: "metrics (prom-client)", match: has("/prom-client/") },
  { name: "validation (zod)", match: has("/zod/") },
  { name: "tsx, source maps", match: has("/tsx/", "/source-map") },
  {
    name: "the bot's own code (apps/bot, packages/core, platform, db)",
    match: has(
      "/apps/bot/src/",
      "/packages/core/src/",
      "/packages/platform/src/",
      "/packages/db/src/",
    ),
  },
  { name: "the baseline bot's own code", match: has("/tests/bench/baseline/") },
  { name: "other packages", match: has("/node_modules/") },
];
