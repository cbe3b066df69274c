// The /stock part of "every update took effect exactly once": the ledger's ADJUST rows against
// what the bot told the operator, allowing for commands the bot gave up on untold.
import { expect, it } from "vitest";
import { ledgerMatches } from "../../src/harness/effects.ts";
import type { StockCommand } from "../../src/harness/operator.ts";

let nextUpdate = 1;
function command(change: string, delta?: number): StockCommand {
  return {
    updateId: nextUpdate++,
    messageId: 1,
    sku: "TEA",
    change,
    delivered: true,
    delta,
    replies: [],
  };
}

it("matches each change the operator was told of to one ledger row", () => {
  const told = [command("+4", 4), command("=12", -3), command("-2", -2)];
  expect(ledgerMatches([4, -3, -2], told, new Set())).toBe(true);
  expect(ledgerMatches([4, -3], told, new Set())).toBe(false); // a change told but not made
  expect(ledgerMatches([4, -3, -2, -2], told, new Set())).toBe(false); // one made twice
  expect(ledgerMatches([4, -3, 2], told, new Set())).toBe(false); // sums differ
  expect(ledgerMatches([4, 3, -2, -5], told, new Set())).toBe(false); // same sum, other changes
});

it("lets a command the bot gave up on untold have taken effect once, or not at all", () => {
  const told = command("+4", 4);
  const givenUp = command("+5");
  const set = command("=12");
  const skipped = new Set([givenUp.updateId, set.updateId]);
  expect(ledgerMatches([4], [told, givenUp], skipped)).toBe(true);
  expect(ledgerMatches([4, 5], [told, givenUp], skipped)).toBe(true);
  expect(ledgerMatches([4, 5, 5], [told, givenUp], skipped)).toBe(false);
  expect(ledgerMatches([4, 3], [told, givenUp], skipped)).toBe(false); // not what "+5" does
  expect(ledgerMatches([4, 5, -7], [told, givenUp, set], skipped)).toBe(true); // "=N": any
  // Not given up: a command that got no reply explains nothing.
  expect(ledgerMatches([4, 5], [told, givenUp], new Set())).toBe(false);
});
