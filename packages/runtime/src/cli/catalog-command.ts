// `npm run catalog -- import FILE.csv [--dry-run]` as a function of its arguments and environment,
// so that tests run it in-process: the exit code, and what it printed.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { Api } from "grammy";
import { z } from "zod";
import { shopSettingsShape } from "@orderbot/core";
import type { UploadPhoto } from "@orderbot/core/catalog-import";
import { ownerActor } from "@orderbot/core/rights";
import {
  ConfigError,
  createMetricsRegistry,
  parseConfig,
  redisTopologyShape,
  sharedConfigShape,
  silentLogger,
} from "@orderbot/platform";
import { createPhotoUploader } from "../photo-uploader.ts";
import { createRuntime, type Runtime } from "../runtime.ts";
import { describeImport } from "./describe-import.ts";

const USAGE = "usage: npm run catalog -- import FILE.csv [--dry-run]";

// The command takes no lock: any namespace keeps its connection apart from the shop's keys.
const configSchema = z.object({
  ...sharedConfigShape,
  ...redisTopologyShape,
  ...shopSettingsShape,
  LOCK_NAMESPACE: z.string().default("catalog-cli"),
  // With the bot's token, photos given as a URL or a path are uploaded through the operator group.
  BOT_TOKEN: z.string().optional(),
  TELEGRAM_API_ROOT: z.url().optional(),
});

export interface CommandOutput {
  code: number;
  /** The lines for stdout (a result) or stderr (usage, configuration, an unreadable file). */
  out: string[];
  err: string[];
}

const failed = (message: string, code = 1): CommandOutput => ({
  code,
  out: [],
  err: [`catalog: ${message}`],
});

export async function catalogCommand(
  args: string[],
  env: Record<string, string | undefined>,
  cwd: string,
): Promise<CommandOutput> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: { "dry-run": { type: "boolean" } },
    });
  } catch (error) {
    return failed(`${(error as Error).message}\n${USAGE}`, 2);
  }
  const [command, file] = parsed.positionals;
  if (command !== "import" || file === undefined || parsed.positionals.length !== 2)
    return failed(USAGE, 2);
  let config: z.infer<typeof configSchema>;
  try {
    config = parseConfig(configSchema, env);
  } catch (error) {
    if (error instanceof ConfigError) return failed(error.message);
    throw error;
  }
  let csv: string;
  try {
    csv = await readFile(path.resolve(cwd, file), "utf8");
  } catch (error) {
    return failed(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? "error"}`);
  }
  const dryRun = parsed.values["dry-run"] === true;
  const runtime = createRuntime(
    { ...config, DATABASE_POOL_MAX: 2 },
    { name: "catalog", logger: silentLogger, registry: createMetricsRegistry() },
  );
  try {
    const uploadPhoto = await photoUploader(config, runtime, path.dirname(path.resolve(cwd, file)));
    const result = await runtime.shop.importCatalog({
      csv,
      dryRun,
      // Whoever runs the command holds the database: they act as an owner.
      actor: ownerActor(0),
      ...(uploadPhoto ? { uploadPhoto } : {}),
    });
    const refused =
      result.status === "refused" ||
      result.status === "forbidden" ||
      (result.status === "applied" && result.conflicts.length > 0);
    const heading = `catalog: ${file}${dryRun ? " (dry run)" : ""}`;
    return { code: refused ? 1 : 0, out: [heading, ...describeImport(result)], err: [] };
  } finally {
    await runtime.close();
  }
}

/** Uploads through the bound operator group, given the bot's token; none without either. */
async function photoUploader(
  config: z.infer<typeof configSchema>,
  runtime: Runtime,
  baseDir: string,
): Promise<UploadPhoto | undefined> {
  if (!config.BOT_TOKEN) return undefined;
  const [group] = await runtime.shop.groups.list();
  if (!group) return undefined;
  const api = new Api(config.BOT_TOKEN, {
    ...(config.TELEGRAM_API_ROOT ? { apiRoot: config.TELEGRAM_API_ROOT } : {}),
  });
  return createPhotoUploader(api, group.chatId, baseDir);
}
