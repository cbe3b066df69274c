// `npm run catalog -- import FILE.csv [--dry-run]` as a function of its arguments and environment,
// so that tests run it in-process: the exit code, and what it printed.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { z } from "zod";
import { shopSettingsShape } from "@orderbot/core";
import {
  ConfigError,
  createMetricsRegistry,
  parseConfig,
  redisTopologyShape,
  sharedConfigShape,
  silentLogger,
} from "@orderbot/platform";
import { createRuntime } from "../runtime.ts";
import { describeImport } from "./describe-import.ts";

const USAGE = "usage: npm run catalog -- import FILE.csv [--dry-run]";

// The command takes no lock: any namespace keeps its connection apart from the shop's keys.
const configSchema = z.object({
  ...sharedConfigShape,
  ...redisTopologyShape,
  ...shopSettingsShape,
  LOCK_NAMESPACE: z.string().default("catalog-cli"),
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
    const result = await runtime.shop.importCatalog({ csv, dryRun, actor: 0n });
    const refused =
      result.status === "refused" || (result.status === "applied" && result.conflicts.length > 0);
    const heading = `catalog: ${file}${dryRun ? " (dry run)" : ""}`;
    return { code: refused ? 1 : 0, out: [heading, ...describeImport(result)], err: [] };
  } finally {
    await runtime.close();
  }
}
