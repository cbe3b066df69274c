// Lock tokens: unpredictable, distinct, and safe inside the hand-off message (no spaces).
import { describe, expect, it } from "vitest";
import { newToken } from "../src/core/requests.ts";

describe("newToken", () => {
  it("gives 24 base64url characters, all distinct, across many pool refills", () => {
    const tokens = Array.from({ length: 10_000 }, newToken); // about 44 refills of the pool
    for (const token of tokens) expect(token).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(new Set(tokens).size).toBe(tokens.length);
  });

  it("spreads its characters evenly, as random bytes would", () => {
    const counts = new Map<string, number>();
    for (let i = 0; i < 4_000; i++)
      for (const char of newToken()) counts.set(char, (counts.get(char) ?? 0) + 1);
    // 96,000 characters over the 64 letters of base64url: 1,500 each on average.
    expect(counts.size).toBe(64);
    for (const count of counts.values()) expect(count).toBeGreaterThan(1_200);
  });
});
