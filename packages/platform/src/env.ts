import { existsSync } from "node:fs";
import path from "node:path";
import { ConfigError } from "./errors.ts";
import type { z } from "zod";

/**
 * Loads `.env`, then `.env.example`, from the project root into `process.env`, never overriding a
 * variable that is already set: the real environment wins, then `.env`, then the documented
 * defaults. Called once by each process's config module.
 *
 * Returns the names whose value came from `.env.example` alone: development defaults that nobody
 * chose, which production refuses (see `parseConfig`). Telling them apart needs the environment
 * the files load into (`process.env`, which only a config module reads); without it, none.
 */
export function loadEnvFiles(root: string, env?: Record<string, string | undefined>): Set<string> {
  let chosen: Set<string> | undefined;
  for (const name of [".env", ".env.example"]) {
    const file = path.join(root, name);
    if (name === ".env.example" && env) chosen = new Set(Object.keys(env));
    if (existsSync(file)) process.loadEnvFile(file);
  }
  return new Set(chosen && env ? Object.keys(env).filter((key) => !chosen.has(key)) : []);
}

/** `.env.example`'s LOCK_HASH_KEY: published, so it keys nothing in production. */
export const EXAMPLE_LOCK_HASH_KEY = "change-me-local-development-key";

/** The shared settings whose `.env.example` value suits development only (local services, `dev:`). */
export const DEVELOPMENT_ONLY_SETTINGS = ["DATABASE_URL", "REDIS_URL", "LOCK_NAMESPACE"] as const;

export interface ProductionRules {
  /** Names whose value came from `.env.example` alone (what `loadEnvFiles` returns). */
  defaulted?: ReadonlySet<string>;
  /** Settings that must not be left at `.env.example`'s value in production. */
  developmentOnly?: readonly string[];
}

/**
 * With NODE_ENV=production: the example hash key, and any development-only setting taken from
 * `.env.example` rather than chosen, one problem each (names only: values may hold passwords).
 */
function productionProblems(env: Record<string, string | undefined>, rules: ProductionRules) {
  if (env.NODE_ENV !== "production") return [];
  const problems: string[] = [];
  if (env.LOCK_HASH_KEY === EXAMPLE_LOCK_HASH_KEY)
    problems.push(
      "LOCK_HASH_KEY: is .env.example's published key; set a random one (16+ characters) for NODE_ENV=production",
    );
  for (const name of rules.developmentOnly ?? [])
    if (rules.defaulted?.has(name))
      problems.push(
        `${name}: is only .env.example's development default; set it for NODE_ENV=production`,
      );
  return problems;
}

/**
 * Parses an environment with a zod schema, or throws a ConfigError listing every problem: the
 * schema's, and with NODE_ENV=production the development values left in place.
 */
export function parseConfig<T extends z.ZodType>(
  schema: T,
  env: Record<string, string | undefined>,
  rules: ProductionRules = {},
): z.infer<T> {
  const result = schema.safeParse(env);
  const problems = [
    ...(result.success
      ? []
      : result.error.issues.map(
          (issue) => `${issue.path.join(".") || "(config)"}: ${issue.message}`,
        )),
    ...productionProblems(env, rules),
  ];
  if (problems.length > 0 || !result.success) throw new ConfigError(problems);
  return result.data;
}
