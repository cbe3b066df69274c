// BASELINE, NOT THE PROJECT: what a user would otherwise write, for the webhook bench to compare the
// project's bot with. A plain grammY bot: `webhookCallback(bot, "fastify")` on Fastify, /catalog
// runs the same Prisma catalog queries as the shop's /catalog (the top-level categories with their
// product counts, and the count of products in no category, through the shop's own catalog
// service) and answers with `ctx.reply`: the same visible work. No update dedupe, no lock, no
// rate limit, no i18n, no metrics. It runs in a process of its own and answers the bench's
// "mark" (CPU, statements, commits so far), "profile:start" and "profile:stop".
import Fastify from "fastify";
import { Bot, webhookCallback } from "grammy";
import type { UserFromGetMe } from "grammy/types";
import type { AddressInfo } from "node:net";
import { type CoreDeps } from "@orderbot/core";
import { createCatalogService } from "@orderbot/core/catalog";
import { createDatabase } from "@orderbot/db";
import { countSqlStatements } from "../profile/counters.ts";
import { serveBot } from "../webhook/bot-child.ts";

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} must be set`);
  return value;
};

countSqlStatements();
const db = createDatabase({
  url: env("BENCH_DATABASE_URL"),
  poolMax: Number(env("BENCH_POOL_MAX")),
  connectTimeoutMs: 30_000,
});
// The catalog service reads only `deps.db`.
const catalog = createCatalogService({ db } as Pick<CoreDeps, "db"> as CoreDeps);
const bot = new Bot(env("BENCH_BOT_TOKEN"), {
  botInfo: JSON.parse(env("BENCH_BOT_INFO")) as UserFromGetMe,
  client: { apiRoot: env("BENCH_API_ROOT") },
});
bot.command("catalog", async (ctx) => {
  const [categories, other] = await Promise.all([
    catalog.categories(),
    catalog.uncategorizedCount(),
  ]);
  const lines = categories
    .filter((c) => c.productCount > 0)
    .map((c) => `${c.title.en} (${c.productCount})`);
  if (other > 0) lines.push(`Other products (${other})`);
  await ctx.reply(["Catalog", ...lines].join("\n"));
});

const server = Fastify();
server.post(
  "/telegram/webhook",
  webhookCallback(bot, "fastify", { secretToken: env("BENCH_WEBHOOK_SECRET") }),
);
await server.listen({ port: 0, host: "127.0.0.1" });
const { port } = server.server.address() as AddressInfo;

serveBot(async () => {
  await server.close();
  await db.$disconnect();
});
process.send!({ ready: { url: `http://127.0.0.1:${port}/telegram/webhook` } });
