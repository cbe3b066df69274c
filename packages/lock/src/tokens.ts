// Lock tokens: 144 random bits from the operating system's CSPRNG, base64url (24 characters, never
// a space — the hand-off message separates its fields with spaces). Drawn from a pool refilled 4 KiB
// at a time: one randomBytes call per lock would cost more than the rest of an acquire.
import { randomBytes, randomFillSync } from "node:crypto";

const TOKEN_BYTES = 18;
const pool = randomBytes(TOKEN_BYTES * 228);
let offset = 0;

export function newToken(): string {
  if (offset + TOKEN_BYTES > pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  const token = pool.toString("base64url", offset, offset + TOKEN_BYTES);
  offset += TOKEN_BYTES;
  return token;
}
