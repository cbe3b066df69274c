// The bot README draws an update's way through the pipeline: its steps in the order the code takes
// them, and no rate limit inside grammY, where there is none.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "@orderbot/testkit";
import { blockAfter, orderOf } from "./order.ts";

const read = (file: string) => readFileSync(path.join(PROJECT_ROOT, file), "utf8");

const IN_CODE = {
  ignored: /isActionable\(/,
  "rate limit": /rateLimiter\.admits\(/,
  lock: /locks\.withLock\(/,
  dedupe: /processed\.has\(/,
  features: /\bhandle\(update\)/,
};
const IN_DOC = {
  ignored: /not an update the bot acts on/,
  "rate limit": /rate limit/,
  lock: /`update` lock/,
  dedupe: /already in ProcessedUpdate/,
  features: /bot\.handleUpdate/,
};

const diagram = (readme: string) => blockAfter(readme, "## How an update travels");
const grammyParagraph = (readme: string) =>
  /Inside grammY[^\n]*(?:\n(?!\n)[^\n]*)*/.exec(readme)?.[0] ?? "";

describe("the bot README's update pipeline", () => {
  const code = orderOf(read("apps/bot/src/updates/pipeline.ts"), IN_CODE);

  it("reads every step from the code", () => {
    expect(code).toHaveLength(Object.keys(IN_CODE).length);
  });

  it("finds a diagram out of the code's order in a fixture", () => {
    const fixture = [
      "## How an update travels",
      "",
      "```",
      "not an update the bot acts on → 200",
      "already in ProcessedUpdate → 200",
      "`update` lock held by another replica → 503",
      "bot.handleUpdate → features",
      "```",
    ].join("\n");
    expect(orderOf(diagram(`\n${fixture}`), IN_DOC)).not.toEqual(code);
  });

  it("draws the steps in the code's order", () => {
    expect(orderOf(diagram(read("apps/bot/README.md")), IN_DOC)).toEqual(code);
  });

  it("puts a rate limit inside grammY only if create-bot.ts's middleware has one", () => {
    const middleware = [...read("apps/bot/src/bot/create-bot.ts").matchAll(/bot\.use\(([^)]*)/g)];
    const paragraph = grammyParagraph(read("apps/bot/README.md"));
    expect(middleware.length).toBeGreaterThan(2);
    expect(paragraph).not.toBe("");
    const limited = middleware.some(([, argument]) => /rate.?limit/i.test(argument!));
    expect(/rate.?limit/i.test(paragraph)).toBe(limited);
  });
});
