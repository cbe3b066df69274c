import path from "node:path";
import { loadEnvFiles } from "@orderbot/platform";

/** The project root, where .env and .env.example live. */
export const PROJECT_ROOT = path.resolve(import.meta.dirname, "../../../..");

export interface ServiceUrls {
  databaseUrl: string;
  redisUrl: string;
}

/** The PostgreSQL and Redis the tests use: those of `npm run services`, as configured in .env. */
export function serviceUrls(): ServiceUrls {
  loadEnvFiles(PROJECT_ROOT);
  const databaseUrl = process.env.DATABASE_URL;
  const redisUrl = process.env.REDIS_URL;
  if (!databaseUrl || !redisUrl)
    throw new Error("DATABASE_URL and REDIS_URL must be set (see .env.example)");
  return { databaseUrl, redisUrl };
}

/** The same server URL with another database name. */
export function withDatabase(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}
