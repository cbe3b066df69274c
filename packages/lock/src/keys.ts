// Lock key layout. One lock name per resource, wrapped in a Redis Cluster hash tag:
//
//   {prod:shopbot:lock:order:42}            the lock (value: the holder's token)
//   {prod:shopbot:lock:order:42}:fence      its fencing counter
//   {prod:shopbot:lock:order:42}:queue      the lock managers waiting for it, in arrival order
//   {prod:shopbot:lock:order:42}:tickets    per waiting manager: its first waiter's token, TTL, deadline
//   prod:shopbot:lock:inbox:<manager id>    the channel a manager is told on that it is its turn
//
// Cluster hashes only what is inside the first {...}, so a lock, its fence counter and its line
// always live in the same slot and one script may touch all of them. Ids that identify people (kind `personal: true`)
// are replaced by `h.` + a keyed HMAC: stable for the same person, unreadable without the key.
import { createHmac } from "node:crypto";
import { LockInputError } from "./errors.ts";
import type { LockResource } from "./types.ts";

export interface LockKeys {
  lock: string;
  fence: string;
  queue: string;
  tickets: string;
  /** The id as it appears in the key (hashed when personal): safe to log. */
  maskedId: string;
}

// Printable, no whitespace, no braces (a brace would move the hash tag).
const SAFE_SEGMENT = /^[\x21-\x7a\x7c\x7e]{1,200}$/;

/** The id as text, or a LockInputError when it cannot name a resource. */
export function idText(id: LockResource["id"]): string {
  if (typeof id === "bigint") return id.toString();
  if (typeof id === "number") {
    if (!Number.isSafeInteger(id))
      throw new LockInputError(`lock id must be a safe integer, got ${id}`, "id");
    return String(id);
  }
  if (typeof id !== "string" || id.length === 0)
    throw new LockInputError("lock id must be a non-empty string, number or bigint", "id");
  if (!SAFE_SEGMENT.test(id))
    throw new LockInputError(
      "lock id must be 1-200 printable characters without spaces or braces",
      "id",
    );
  return id;
}

export function hashId(hashKey: string, kind: string, id: string): string {
  return `h.${createHmac("sha256", hashKey).update(`${kind}\0${id}`).digest("base64url").slice(0, 27)}`;
}

export function lockKeys(namespace: string, kind: string, maskedId: string): LockKeys {
  // Destructured, not spread: a spread object is a slow one, and these are read on every command.
  const { lock, fence, queue, tickets } = siblingKeys(`{${namespace}:lock:${kind}:${maskedId}}`);
  return { lock, fence, queue, tickets, maskedId };
}

/** A lock key and the keys that live beside it (same hash tag, same slot). */
export function siblingKeys(lock: string): Omit<LockKeys, "maskedId"> {
  return { lock, fence: `${lock}:fence`, queue: `${lock}:queue`, tickets: `${lock}:tickets` };
}

/** Channels of the managers of a namespace: the prefix, to which the release script appends a manager id. */
export function inboxPrefix(namespace: string): string {
  return `${namespace}:lock:inbox:`;
}

export function checkNamespace(namespace: unknown): string {
  if (typeof namespace !== "string" || !SAFE_SEGMENT.test(namespace)) {
    throw new LockInputError(
      'namespace must be 1-200 printable characters without spaces or braces, e.g. "prod:shopbot"',
      "namespace",
    );
  }
  return namespace;
}
