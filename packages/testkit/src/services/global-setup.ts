// vitest's global set-up for every workspace (vitest.shared.ts): runs once per test run, before any
// test file: checks that PostgreSQL and Redis answer and builds the migrated template every test
// file clones. `npm test` starts the services first; running vitest directly needs
// `npm run services -- start`.
import { Redis } from "ioredis";
import { prepareTemplateDatabase } from "./database.ts";
import { serviceUrls } from "./env.ts";

export default async function setup(): Promise<void> {
  process.env.ORDERBOT_TEST_RUN = String(process.pid);
  const { redisUrl } = serviceUrls();
  const redis = new Redis(redisUrl, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  try {
    await redis.connect();
    await redis.ping();
  } catch {
    throw new Error(
      `Redis does not answer at ${redisUrl}: run 'npm run services -- start' (npm test does it for you)`,
    );
  } finally {
    redis.disconnect();
  }
  try {
    await prepareTemplateDatabase();
  } catch (error) {
    throw new Error(
      `PostgreSQL is not ready (${error instanceof Error ? error.message : String(error)}): run 'npm run services -- start' (npm test does it for you)`,
    );
  }
}
