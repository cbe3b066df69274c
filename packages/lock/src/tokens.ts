// Lock tokens: 144 random bits from the operating system's CSPRNG, base64url (24 characters, never
// a space — the hand-off message separates its fields with spaces). Drawn from a pool refilled 4 KiB
// at a time and encoded once per refill: one randomBytes call, or one encoding, per lock would cost
// more than the rest of an acquire. 18 bytes are exactly 24 base64 characters, so each token is
// its own 18 bytes of the pool.
import { randomBytes } from "node:crypto";

const TOKEN_BYTES = 18;
const TOKEN_CHARS = 24;
const POOL_TOKENS = 228;

let pool = "";
let offset = 0;

export function newToken(): string {
  if (offset === pool.length) {
    pool = randomBytes(TOKEN_BYTES * POOL_TOKENS).toString("base64url");
    offset = 0;
  }
  const token = pool.slice(offset, offset + TOKEN_CHARS);
  offset += TOKEN_CHARS;
  return token;
}
