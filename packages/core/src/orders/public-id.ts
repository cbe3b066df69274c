import { randomInt } from "node:crypto";

/** No 0/O, 1/I/L: users read these ids aloud and type them into /order. */
export const PUBLIC_ID_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";

/** A short, unpredictable order id (8 characters: 31^8 ≈ 8.5e11 values). */
export function newPublicId(length = 8): string {
  let id = "";
  for (let i = 0; i < length; i++) id += PUBLIC_ID_ALPHABET[randomInt(PUBLIC_ID_ALPHABET.length)];
  return id;
}

export const PUBLIC_ID_PATTERN = /^[2-9A-HJKMNP-Z]{6,16}$/;
