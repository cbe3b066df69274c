// The worker's logs get the bot's scrubbing: a secret value that reaches a log line, through an
// error message say, is replaced on the way out.
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { parseWorkerConfig } from "../src/config.ts";
import { createProcessLogger } from "../src/process-logger.ts";

const SECRETS = {
  BOT_TOKEN: "123456:worker-token-not-real-0000000000",
  LOCK_HASH_KEY: "worker-hash-key-0123456789",
  METRICS_TOKEN: "worker-metrics-token-0123",
};

describe("the worker's process logger", () => {
  it("scrubs the bot token, the hash key and the metrics token from every line", async () => {
    const config = parseWorkerConfig({
      NODE_ENV: "production",
      DATABASE_URL: "postgresql://worker@127.0.0.1:5432/orderbot",
      REDIS_URL: "redis://127.0.0.1:6379",
      ...SECRETS,
    });
    const out = new PassThrough();
    let written = "";
    out.on("data", (chunk: Buffer) => (written += chunk.toString()));
    const logger = createProcessLogger(config, out);
    logger.error(
      { err: new Error(`request failed: ${Object.values(SECRETS).join(" ")}`) },
      `job failed for key ${SECRETS.LOCK_HASH_KEY}`,
    );
    await new Promise((resolve) => setImmediate(resolve));
    expect(written).toContain("job failed for key [redacted]");
    for (const secret of Object.values(SECRETS)) expect(written).not.toContain(secret);
  });
});
