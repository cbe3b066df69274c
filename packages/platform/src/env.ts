import { existsSync } from "node:fs";
import path from "node:path";
import { ConfigError } from "./errors.ts";
import type { z } from "zod";

/**
 * Loads `.env`, then `.env.example`, from the project root into `process.env`, never overriding a
 * variable that is already set: the real environment wins, then `.env`, then the documented
 * defaults. Called once by each process's config module.
 */
export function loadEnvFiles(root: string): void {
  for (const name of [".env", ".env.example"]) {
    const file = path.join(root, name);
    if (existsSync(file)) process.loadEnvFile(file);
  }
}

/** Parses an environment with a zod schema, or throws a ConfigError listing every problem. */
export function parseConfig<T extends z.ZodType>(
  schema: T,
  env: Record<string, string | undefined>,
): z.infer<T> {
  const result = schema.safeParse(env);
  if (result.success) return result.data;
  throw new ConfigError(
    result.error.issues.map((issue) => `${issue.path.join(".") || "(config)"}: ${issue.message}`),
  );
}
