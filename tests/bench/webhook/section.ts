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
    `interleaved rounds after a ${run.warmupMs} ms warm-up per target. The baseline and the MEASUREMENT row: "How they`,
    "measure\", above. CPU per update is the bot process's own; statements and Redis commands are counted in it.",
    "",
    md(run.main),
    "",
    run.targetLine,
    "",
    `Where one update's CPU goes (a ${run.profileMs} ms CPU profile per bot; a sample counts for the innermost frame whose`,
    "module has a row; the statements and commands a part sends are in the client rows):",
    "",
    md(run.profile),
    "",
    'Counts per update, measured rounds only ("Redis server ran": INFO commandstats of the bench\'s own redis-server,',
    "which only the project's bot uses):",
    "",
    md(run.counts),
  ].join("\n");
}
