import { expect } from "vitest";

/** Phone numbers the e2e suite sends in contact messages; none may ever reach a log. */
export const TEST_PHONE_NUMBERS = ["+15550100123", "+8613800138000"];

/**
 * The processes' output holds no secret and no phone number: neither the ones the suite used nor
 * anything shaped like them (a bot token, an international phone number).
 */
export function expectCleanLogs(lines: readonly string[], secrets: readonly string[]): void {
  const text = lines.join("\n");
  // Not a vacuous scan: the processes did log the updates they handled.
  expect(text).toContain('"updateId"');
  for (const secret of secrets)
    expect(text.includes(secret), "a secret appears in the logs").toBe(false);
  for (const phone of TEST_PHONE_NUMBERS) {
    expect(
      text.includes(phone) || text.includes(phone.slice(1)),
      `phone number ${phone} appears in the logs`,
    ).toBe(false);
  }
  expect(
    text.match(/\d{6,}:[A-Za-z0-9_-]{20,}/g) ?? [],
    "something shaped like a bot token",
  ).toEqual([]);
  expect(text.match(/\+\d{10,15}\b/g) ?? [], "something shaped like a phone number").toEqual([]);
}
