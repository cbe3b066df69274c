import { createHash, timingSafeEqual } from "node:crypto";

/**
 * Compares a presented secret with the expected one in constant time. Both sides are hashed first
 * so that neither the content nor the length of the secret leaks through timing.
 */
export function secretMatches(presented: unknown, expected: string): boolean {
  if (typeof presented !== "string") return false;
  const a = createHash("sha256").update(presented).digest();
  const b = createHash("sha256").update(expected).digest();
  return timingSafeEqual(a, b);
}
