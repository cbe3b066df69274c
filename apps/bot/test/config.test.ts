import { spawn } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError } from "@orderbot/platform";
import { parseBotConfig } from "../src/config.ts";

const VALID = {
  BOT_TOKEN: "123456789:AAtest-token-value_0123456789",
  DATABASE_URL: "postgresql://postgres@127.0.0.1:5432/orderbot",
  REDIS_URL: "redis://127.0.0.1:6379",
  LOCK_HASH_KEY: "a-hash-key-of-16+-chars",
};

function problems(env: Record<string, string>): string[] {
  try {
    parseBotConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe("bot configuration", () => {
  it("fills in the documented defaults", () => {
    const config = parseBotConfig(VALID);
    expect(config).toMatchObject({
      BOT_MODE: "polling",
      PORT: 8080,
      PAYMENT_CURRENCY: "XTR",
      PROVIDER_TOKEN: "",
      RESERVATION_MINUTES: 15,
      OWNER_IDS: [],
    });
  });

  it("reads the polling retry window, defaulting to about three minutes", () => {
    expect(parseBotConfig(VALID)).toMatchObject({
      POLL_RETRY_MAX_ATTEMPTS: 12,
      POLL_RETRY_BASE_MS: 500,
      POLL_RETRY_MAX_MS: 30_000,
    });
    const short = {
      POLL_RETRY_MAX_ATTEMPTS: "4",
      POLL_RETRY_BASE_MS: "200",
      POLL_RETRY_MAX_MS: "1000",
    };
    expect(parseBotConfig({ ...VALID, ...short })).toMatchObject({
      POLL_RETRY_MAX_ATTEMPTS: 4,
      POLL_RETRY_BASE_MS: 200,
      POLL_RETRY_MAX_MS: 1_000,
    });
    expect(problems({ ...VALID, POLL_RETRY_MAX_ATTEMPTS: "0" })).toHaveLength(1);
  });

  it("reads the shop's terms with \\n as line breaks, and refuses terms longer than one message", () => {
    expect(parseBotConfig(VALID)).toMatchObject({ SHOP_TERMS: "", SHOP_SUPPORT_CONTACT: "" });
    const config = parseBotConfig({
      ...VALID,
      SHOP_TERMS: " No returns.\\nRefunds in Stars. ",
      SHOP_SUPPORT_CONTACT: " @shop_help ",
    });
    expect(config).toMatchObject({
      SHOP_TERMS: "No returns.\nRefunds in Stars.",
      SHOP_SUPPORT_CONTACT: "@shop_help",
    });
    expect(problems({ ...VALID, SHOP_TERMS: "x".repeat(3501) })).toEqual([
      expect.stringMatching(/^SHOP_TERMS: /),
    ]);
  });

  it("reads ids as bigints: Telegram ids exceed 32 bits", () => {
    const config = parseBotConfig({
      ...VALID,
      OWNER_IDS: "7000000001, 42",
      OPERATOR_GROUP_ID: "-1002000000001",
    });
    expect(config.OWNER_IDS).toEqual([7_000_000_001n, 42n]);
    expect(config.OPERATOR_GROUP_ID).toBe(-1_002_000_000_001n);
  });

  it("lists every problem at once, one per line, naming the variable", () => {
    const found = problems({
      ...VALID,
      BOT_TOKEN: "not-a-token",
      BOT_MODE: "webhook",
      PORT: "http",
      PAYMENT_CURRENCY: "XTR",
      PROVIDER_TOKEN: "tok",
      OPERATOR_GROUP_ID: "123",
    });
    expect(found.map((p) => p.split(":")[0]).sort()).toEqual([
      "BOT_TOKEN",
      "OPERATOR_GROUP_ID",
      "PORT",
      "PROVIDER_TOKEN",
      "PUBLIC_URL",
      "WEBHOOK_SECRET",
    ]);
    for (const problem of found) expect(problem).not.toContain("\n");
  });

  it("says what a missing token is", () => {
    const { BOT_TOKEN: _omitted, ...rest } = VALID;
    expect(problems(rest)).toEqual(["BOT_TOKEN: is required: the bot's token from @BotFather"]);
  });

  it("needs a provider token for real currencies, and none for Stars", () => {
    expect(problems({ ...VALID, PAYMENT_CURRENCY: "USD" })).toEqual([
      "PROVIDER_TOKEN: is required for PAYMENT_CURRENCY=USD",
    ]);
    expect(
      problems({ ...VALID, PAYMENT_CURRENCY: "USD", PROVIDER_TOKEN: "provider:token" }),
    ).toEqual([]);
  });

  it("refuses a webhook secret Telegram would refuse", () => {
    expect(problems({ ...VALID, WEBHOOK_SECRET: "has spaces" })).toHaveLength(1);
    expect(problems({ ...VALID, WEBHOOK_SECRET: "x".repeat(257) })).toHaveLength(1);
  });
});

describe("the bot process with an invalid configuration", () => {
  it("prints one line per problem, without the values, and exits 1", async () => {
    const secretish = "definitely-not-a-valid-token";
    const child = spawn(
      process.execPath,
      ["--import", "tsx", path.resolve(import.meta.dirname, "../src/main.ts")],
      {
        env: {
          PATH: process.env.PATH,
          ...VALID,
          BOT_TOKEN: secretish,
          BOT_MODE: "webhook",
          PORT: "99999",
          NODE_ENV: "production",
        },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));

    expect(code).toBe(1);
    expect(stdout).toBe("");
    const lines = stderr.trim().split("\n");
    expect(lines.map((l) => /^bot: invalid configuration: (\w+):/.exec(l)?.[1]).sort()).toEqual([
      "BOT_TOKEN",
      "PORT",
      "PUBLIC_URL",
      "WEBHOOK_SECRET",
    ]);
    expect(stderr).not.toContain(secretish);
  });
});
