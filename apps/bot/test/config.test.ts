import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { parseEnv } from "node:util";
import { describe, expect, it } from "vitest";
import { configProblems } from "@orderbot/testkit";
import { parseBotConfig } from "../src/config.ts";
import { webhookMaxConnections } from "../src/updates/max-connections.ts";

const botProblems = (env: Record<string, string>) => configProblems(() => parseBotConfig(env));

const VALID = {
  BOT_TOKEN: "123456789:AAtest-token-value_0123456789",
  DATABASE_URL: "postgresql://postgres@127.0.0.1:5432/orderbot",
  REDIS_URL: "redis://127.0.0.1:6379",
  LOCK_HASH_KEY: "a-hash-key-of-16+-chars",
};

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
    expect(botProblems({ ...VALID, POLL_RETRY_MAX_ATTEMPTS: "0" })).toHaveLength(1);
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
    expect(botProblems({ ...VALID, SHOP_TERMS: "x".repeat(3501) })).toEqual([
      expect.stringMatching(/^SHOP_TERMS: /),
    ]);
  });

  it("reads the shop's time zone, an IANA name, UTC by default, and refuses anything else", () => {
    expect(parseBotConfig(VALID).SHOP_TIME_ZONE).toBe("UTC");
    expect(parseBotConfig({ ...VALID, SHOP_TIME_ZONE: "Asia/Shanghai" }).SHOP_TIME_ZONE).toBe(
      "Asia/Shanghai",
    );
    expect(botProblems({ ...VALID, SHOP_TIME_ZONE: "Beijing" })).toEqual([
      expect.stringMatching(/^SHOP_TIME_ZONE: must be an IANA time zone name/),
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
    const found = botProblems({
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
      "PROVIDER_CURRENCY",
      "PUBLIC_URL",
      "SHIPPING_OPTIONS",
      "WEBHOOK_SECRET",
    ]);
    for (const problem of found) expect(problem).not.toContain("\n");
  });

  it("says what a missing token is", () => {
    const { BOT_TOKEN: _omitted, ...rest } = VALID;
    expect(botProblems(rest)).toEqual(["BOT_TOKEN: is required: the bot's token from @BotFather"]);
  });

  it("sells digital goods for Stars and physical goods through a provider, with shipping options", () => {
    const shipping = '[{"id":"post","title":"Post","price":900,"countries":["DE","at"]}]';
    const provider = {
      PROVIDER_TOKEN: "provider:token",
      PROVIDER_CURRENCY: "USD",
      SHIPPING_OPTIONS: shipping,
    };
    expect(botProblems({ ...VALID, ...provider })).toEqual([]);
    expect(parseBotConfig({ ...VALID, ...provider })).toMatchObject({
      SHIPPING_OPTIONS: [{ id: "post", title: "Post", price: 900, countries: ["DE", "AT"] }],
      INVOICE_NEED_NAME: true,
      INVOICE_NEED_PHONE: true,
      INVOICE_NEED_EMAIL: false,
    });
    expect(parseBotConfig(VALID)).toMatchObject({ PROVIDER_TOKEN: "", SHIPPING_OPTIONS: [] });
    expect(
      botProblems({ ...VALID, PROVIDER_TOKEN: "provider:token", SHIPPING_OPTIONS: shipping }),
    ).toEqual([
      "PROVIDER_CURRENCY: is required with PROVIDER_TOKEN: the currency physical goods are priced in",
    ]);
    expect(botProblems({ ...VALID, PROVIDER_CURRENCY: "USD" })).toEqual([
      "PROVIDER_TOKEN: is required with PROVIDER_CURRENCY=USD (the token @BotFather gives for the provider)",
    ]);
    expect(botProblems({ ...VALID, ...provider, SHIPPING_OPTIONS: "[]" })).toEqual([
      "SHIPPING_OPTIONS: must list at least one option when physical goods are sold (PROVIDER_TOKEN)",
    ]);
    expect(botProblems({ ...VALID, ...provider, SHIPPING_OPTIONS: "{oops" })).toEqual([
      "SHIPPING_OPTIONS: must be JSON: a list of shipping options",
    ]);
    expect(botProblems({ ...VALID, ...provider, INVOICE_NEED_PHONE: "maybe" })).toEqual([
      "INVOICE_NEED_PHONE: must be true or false",
    ]);
  });

  it("tells an old env file with PAYMENT_CURRENCY=USD what to set instead", () => {
    expect(
      botProblems({ ...VALID, PAYMENT_CURRENCY: "USD", PROVIDER_TOKEN: "provider:token" }),
    ).toEqual([
      "PAYMENT_CURRENCY: is replaced: digital goods are sold for Stars (XTR), physical goods through the provider; set PROVIDER_CURRENCY=USD (with PROVIDER_TOKEN and SHIPPING_OPTIONS) and remove PAYMENT_CURRENCY",
      "PROVIDER_CURRENCY: is required with PROVIDER_TOKEN: the currency physical goods are priced in",
      "SHIPPING_OPTIONS: must list at least one option when physical goods are sold (PROVIDER_TOKEN)",
    ]);
    expect(botProblems({ ...VALID, PAYMENT_CURRENCY: "XTR" })).toEqual([]);
  });

  it("reads the checkout limits, and refuses an order total one invoice could not ask", () => {
    expect(parseBotConfig(VALID)).toMatchObject({
      ORDER_MAX_LINES: 10,
      ORDER_MAX_UNITS_PER_LINE: 10,
    });
    expect(parseBotConfig(VALID).ORDER_MAX_TOTAL).toBeUndefined();
    expect(
      parseBotConfig({ ...VALID, ORDER_MAX_LINES: "3", ORDER_MAX_TOTAL: "500" }),
    ).toMatchObject({ ORDER_MAX_LINES: 3, ORDER_MAX_TOTAL: 500 });
    expect(botProblems({ ...VALID, ORDER_MAX_TOTAL: "10001" })).toEqual([
      "ORDER_MAX_TOTAL: must be 1-10000: what one XTR invoice may ask, in minor units",
    ]);
    expect(
      botProblems({ ...VALID, ORDER_MAX_LINES: "0", ORDER_MAX_UNITS_PER_LINE: "100" }).map(
        (p) => p.split(":")[0],
      ),
    ).toEqual(["ORDER_MAX_LINES", "ORDER_MAX_UNITS_PER_LINE"]);
  });

  it("refuses a webhook secret Telegram would refuse", () => {
    expect(botProblems({ ...VALID, WEBHOOK_SECRET: "has spaces".padEnd(40, "x") })).toHaveLength(1);
    expect(botProblems({ ...VALID, WEBHOOK_SECRET: "x".repeat(257) })).toHaveLength(1);
  });

  it("refuses a webhook secret shorter than 32 characters, saying so", () => {
    for (const secret of ["x", "a".repeat(31)]) {
      expect(botProblems({ ...VALID, WEBHOOK_SECRET: secret })).toEqual([
        "WEBHOOK_SECRET: must be 32-256 characters of A-Z a-z 0-9 _ - (generate one with: openssl rand -hex 32)",
      ]);
    }
    expect(botProblems({ ...VALID, WEBHOOK_SECRET: "A-z_0".repeat(6) + "9x" })).toEqual([]);
    expect(botProblems({ ...VALID, WEBHOOK_SECRET: "x".repeat(256) })).toEqual([]);
  });

  it("defaults the webhook's max_connections to what the replicas' pools serve, within 1-100", () => {
    const maxConnections = (env: Record<string, string>) =>
      webhookMaxConnections(parseBotConfig({ ...VALID, ...env }));
    expect(maxConnections({})).toBe(10);
    expect(maxConnections({ BOT_REPLICAS: "2", DATABASE_POOL_MAX: "10" })).toBe(20);
    expect(maxConnections({ BOT_REPLICAS: "30", DATABASE_POOL_MAX: "10" })).toBe(100);
    expect(maxConnections({ BOT_REPLICAS: "2", WEBHOOK_MAX_CONNECTIONS: "8" })).toBe(8);
    for (const value of ["0", "101"]) {
      expect(botProblems({ ...VALID, WEBHOOK_MAX_CONNECTIONS: value })).toEqual([
        "WEBHOOK_MAX_CONNECTIONS: must be 1-100, Telegram's range",
      ]);
    }
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
          LOCK_NAMESPACE: "prod:orderbot",
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

/** `.env.example` as every process loads it for defaults. */
const EXAMPLE = parseEnv(
  readFileSync(path.resolve(import.meta.dirname, "../../../.env.example"), "utf8"),
) as Record<string, string>;

const productionProblems = (env: Record<string, string>, defaulted: string[] = []) =>
  configProblems(() => parseBotConfig({ ...EXAMPLE, ...env }, new Set(defaulted)));

describe("production on development defaults", () => {
  const chosen = { ...VALID, LOCK_NAMESPACE: "prod:orderbot", BOT_MODE: "polling" };

  it("refuses .env.example's hash key with NODE_ENV=production, even when set by hand", () => {
    const found = productionProblems({
      ...chosen,
      NODE_ENV: "production",
      LOCK_HASH_KEY: EXAMPLE.LOCK_HASH_KEY!,
    });
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/^LOCK_HASH_KEY: .*NODE_ENV=production/);
    expect(found[0]).not.toContain(EXAMPLE.LOCK_HASH_KEY);
    // Development keeps working on the example.
    expect(productionProblems({ ...chosen, LOCK_HASH_KEY: EXAMPLE.LOCK_HASH_KEY! })).toEqual([]);
  });

  it("names each development-only setting left at .env.example's value, one line each", () => {
    const defaulted = ["DATABASE_URL", "REDIS_URL", "LOCK_NAMESPACE", "BOT_MODE", "PORT"];
    const found = productionProblems({ ...chosen, NODE_ENV: "production" }, defaulted);
    expect(found.map((p) => p.split(":")[0]).sort()).toEqual([
      "BOT_MODE",
      "DATABASE_URL",
      "LOCK_NAMESPACE",
      "REDIS_URL",
    ]);
    expect(found.every((p) => p.includes("development default"))).toBe(true);
    expect(productionProblems({ ...chosen, NODE_ENV: "development" }, defaulted)).toEqual([]);
  });

  it("needs BOT_MODE chosen in production, and says whether it was", () => {
    const { BOT_MODE: _, ...unset } = { ...EXAMPLE, ...chosen, NODE_ENV: "production" };
    expect(() => parseBotConfig(unset)).toThrow(/BOT_MODE: /);
    expect(parseBotConfig({ ...chosen }).botModeChosen).toBe(true);
    expect(parseBotConfig({ ...chosen }, new Set(["BOT_MODE"])).botModeChosen).toBe(false);
    expect(parseBotConfig(VALID).botModeChosen).toBe(false);
  });
});

describe("the bot process started with NODE_ENV=production and .env.example's defaults", () => {
  it("refuses to start, naming the example key and each development default", async () => {
    const child = spawn(
      process.execPath,
      ["--import", "tsx", path.resolve(import.meta.dirname, "../src/main.ts")],
      {
        env: {
          PATH: process.env.PATH,
          BOT_TOKEN: VALID.BOT_TOKEN,
          NODE_ENV: "production",
          DATABASE_URL: VALID.DATABASE_URL,
        },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    // Without the check the bot would run on: it must not outlive the test.
    const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    clearTimeout(timer);
    expect(code).toBe(1);
    const lines = stderr.trim().split("\n");
    expect(lines.map((l) => /^bot: invalid configuration: (\w+):/.exec(l)?.[1]).sort()).toEqual([
      "BOT_MODE",
      "LOCK_HASH_KEY",
      "REDIS_URL", // LOCK_NAMESPACE is not in .env.example: unset, it names the bot
    ]);
    expect(stderr).not.toContain(EXAMPLE.LOCK_HASH_KEY);
  });
});
