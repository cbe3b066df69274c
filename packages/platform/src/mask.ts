import { createHmac } from "node:crypto";

/**
 * A stable, non-reversible stand-in for an identifier that points at a person (a Telegram user
 * id, a chat id). Same input and key, same output; without the key it cannot be reversed by
 * enumerating ids. Use it in logs, metrics and lock keys.
 */
export function maskId(id: bigint | number | string, key: string, length = 16): string {
  return createHmac("sha256", key).update(String(id)).digest("base64url").slice(0, length);
}
