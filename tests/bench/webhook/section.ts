// The bench:webhook section of docs/benchmarks.md: the run's conditions and its tables. Written
// through the shared docs writer.
import {
  environmentLine,
  installedVersion,
  markdownTable,
  packageVersion,
} from "@orderbot/testkit";
import { SENDERS } from "./targets.ts";
import type { Table } from "./tables.ts";

export interface WebhookRun {
  cellMs: number;
  rounds: number;
  warmupMs: number;
  profileMs: number;
  main: Table;
  targetLine: string;
  profile: Table;
  counts: Table;
}

const md = (t: Table) => markdownTable(t.header, t.rows);

export function webhookSection(run: WebhookRun): string {
  return [
    "## Webhook: the project's bot against a plain grammY bot (`npm run bench -- webhook`)",
    "",
    environmentLine({
      fastify: packageVersion("fastify"),
      grammy: installedVersion("grammy"),
      "@prisma/client": packageVersion("@prisma/client"),
    }),
    "",
    `${SENDERS} concurrent senders POST \`/catalog\` updates, each from a user new to the bot, ${run.cellMs} ms per target in ${run.rounds}`,
    `interleaved rounds after a ${run.warmupMs} ms warm-up per target. Every user opened their chat with the fake Bot API first, so`,
    "every reply is delivered; any Bot API answer that is not a success, or webhook answer that is not 200, fails the run.",
    "The fake Bot API and each bot run in processes of their own; the senders and the bare route in the bench's.",
    "The baseline (tests/bench/baseline/plain-bot.ts) is grammY's `webhookCallback` on Fastify running the same catalog",
    "queries and `ctx.reply`, with no dedupe, lock, rate limit or i18n. CPU per update is the bot process's own; SQL",
    "statements, commits and Redis commands are counted in the bot process (pg and ioredis clients).",
    "The MEASUREMENT row is not an option of the bot: the same app and process with the update pipeline's safety",
    "machinery answered in-process instead of sent (no update record read or written, no update lock, every update",
    "admitted by the rate limit; tests/bench/webhook/project-bot-process.ts, BENCH_WITHOUT_SAFETY). What it gains over",
    "the project's bot is what that machinery costs; how far it stays from the baseline is the shop's own /catalog",
    "(the customer's first-contact record and language, the cart's count on the catalog's button, i18n, grammY's",
    "feature chain).",
    "",
    md(run.main),
    "",
    run.targetLine,
    "",
    `Where one update's CPU goes (a separate ${run.profileMs} ms phase per bot under node:inspector's CPU profiler, sampling`,
    "every 200 µs; a sample counts for the innermost frame whose module has a row, node's own frames for their caller).",
    "The dedupe, lock and rate limit rows are their own JavaScript only: the statements and commands they send are in the",
    "Prisma, pg and Redis client rows, and the counts below say which part sends how many.",
    "",
    md(run.profile),
    "",
    'Counts per update, measured rounds only ("Redis server ran": INFO commandstats of the bench\'s own redis-server,',
    "which only the project's bot uses):",
    "",
    md(run.counts),
  ].join("\n");
}
