// docs/first-run.md, followed against the fake Telegram: its settings are the bot's and parse, its
// chat commands get the answers it quotes, its catalog commands import a file, a customer buys,
// and its getWebhookInfo shows the webhook the bot set. A guide that drifts from the code fails.
import { readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { parseEnv } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SimulatedGroup, SimulatedUser } from "@orderbot/fake-telegram";
import { catalogCommand } from "@orderbot/runtime/catalog-command";
import { PROJECT_ROOT, runCustomer } from "@orderbot/testkit";
import { botConfigSchema, parseBotConfig } from "../src/config.ts";
import { OWNER_ID, startBotHarness, type BotHarness } from "./support/harness.ts";

const guide = readFileSync(path.join(PROJECT_ROOT, "docs/first-run.md"), "utf8");
const shBlocks = [...guide.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!.trim().split("\n"));
/** The `.env` blocks: every line KEY=value. */
const envBlocks = shBlocks
  .filter((lines) => lines.every((line) => /^[A-Z][A-Z0-9_]*=/.test(line)))
  .map((lines) => Object.fromEntries(lines.map((line) => line.split(/=(.*)/s).slice(0, 2))));
const commands = shBlocks.filter((lines) => !lines.some((l) => /^[A-Z_]+=/.test(l))).flat();
const catalogRuns = commands
  .filter((line) => line.startsWith("npm run catalog -- "))
  .map((line) => line.slice("npm run catalog -- ".length).split(" "));
/** What the guide says to send in a chat, and the answer it quotes. */
const sent = [...guide.matchAll(/send `(\/\w+)`/g)].map((m) => m[1]!);
const bindAnswer = /send `\/bind`\. The bot answers\s+"([^"]+)"/.exec(guide)?.[1];
const webhookMethod = /api\.telegram\.org\/bot\$BOT_TOKEN\/(\w+)/.exec(guide)?.[1];

const FAKE = { BOT_TOKEN: "123456:ABC-DEF1234ghIkl-zyx57W2v1u123ew11", OWNER_IDS: "1" };
/** What the bot reads besides `.env`: `.env.example`'s values (loadEnvFiles). */
const BASE = parseEnv(readFileSync(path.join(PROJECT_ROOT, ".env.example"), "utf8"));

let h: BotHarness;
let dir: string;
beforeAll(async () => {
  h = await startBotHarness({ mode: "webhook", catalog: false });
  dir = await mkdtemp(path.join(os.tmpdir(), "orderbot-first-run-"));
});
afterAll(async () => {
  await h?.close();
  await rm(dir, { recursive: true, force: true });
});

describe("the first-run guide", () => {
  it("is at most 600 words, and the README links to it", () => {
    expect(guide.split(/\s+/).filter(Boolean).length).toBeLessThanOrEqual(600);
    expect(readFileSync(path.join(PROJECT_ROOT, "README.md"), "utf8")).toContain(
      "(docs/first-run.md)",
    );
  });

  it("names only the bot's settings, in values it accepts, for polling and for a webhook", () => {
    const [polling, webhook] = envBlocks;
    expect(polling).toMatchObject({ BOT_MODE: "polling" });
    expect(webhook).toMatchObject({ BOT_MODE: "webhook" });
    const known = Object.keys(botConfigSchema.in.shape);
    for (const block of envBlocks)
      expect(Object.keys(block).filter((key) => !known.includes(key))).toEqual([]);
    expect(parseBotConfig({ ...BASE, ...polling }).OWNER_IDS).toEqual([123456789n]);
    expect(parseBotConfig({ ...BASE, ...polling, ...webhook, ...FAKE }).PUBLIC_URL).toMatch(
      /^https:\/\//,
    );
  });

  it("binds the group with the command it names, to the answer it quotes", async () => {
    expect(sent).toEqual(["/newbot", "/bind", "/start"]);
    const owner = h.kit.createUser({ id: OWNER_ID, firstName: "Owner", languageCode: "en" });
    const group: SimulatedGroup = h.kit.createGroup({ title: "Shop", creator: owner });
    await owner.send("/bind", { in: group });
    expect((await group.waitForMessage()).text).toContain(bindAnswer);
  });

  it("imports a catalog with its commands, then a customer buys from it", async () => {
    expect(catalogRuns).toEqual([
      ["import", "my-catalog.csv", "--dry-run"],
      ["import", "my-catalog.csv"],
    ]);
    await writeFile(
      path.join(dir, "my-catalog.csv"),
      "sku,title_en,title_zh,category,price,currency,kind,stock,photo\n" +
        "FIRST-TEA,First tea,第一茶,,20,XTR,digital,3,\n",
    );
    const env = {
      DATABASE_URL: h.services.databaseUrl,
      REDIS_URL: h.services.redisUrl,
      LOCK_HASH_KEY: "first-run-hash-key-0123456",
    };
    const outputs: Awaited<ReturnType<typeof catalogCommand>>[] = [];
    for (const args of catalogRuns) outputs.push(await catalogCommand(args, env, dir));
    expect(outputs.map((o) => [o.code, o.out[1]])).toEqual([
      [0, "would create 1: FIRST-TEA"],
      [0, "create 1: FIRST-TEA"],
    ]);
    const customer: SimulatedUser = h.kit.createUser({ languageCode: "en" });
    const bought = await runCustomer(customer, {
      kit: h.kit,
      products: ["First tea"],
      intents: { pay: 1, cancel: 0, abandon: 0 },
      maxQuantity: 1,
      thinkMs: [0, 0],
      random: () => 0,
    });
    expect(bought.payment?.status).toBe("paid");
  });

  it("checks the webhook with the method it names: the URL the bot set, no error", async () => {
    expect(webhookMethod).toBe("getWebhookInfo");
    const response = await fetch(`${h.kit.apiRoot}/bot${h.kit.token}/${webhookMethod}`);
    const { result } = (await response.json()) as { result: Record<string, unknown> };
    expect(result.url).toBe(`${h.config.PUBLIC_URL}/telegram/webhook`);
    expect(result.last_error_message).toBeUndefined();
    expect(result.max_connections).toBe(h.config.DATABASE_POOL_MAX);
  });
});
