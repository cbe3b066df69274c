import { createHash, timingSafeEqual } from "node:crypto";

/** Compares a presented secret with the expected one in constant time (both hashed: no length leak). */
export function secretMatches(presented: unknown, expected: string): boolean {
  if (typeof presented !== "string") return false;
  const a = createHash("sha256").update(presented).digest();
  const b = createHash("sha256").update(expected).digest();
  return timingSafeEqual(a, b);
}
