import { AsyncLocalStorage } from "node:async_hooks";
import type { Logger } from "@orderbot/platform";

const current = new AsyncLocalStorage<{ updateId: number; receivedAt: number; calls: number }>();

/**
 * Runs `fn` as the handling of one update, received at `receivedAt` (`performance.now()`): whatever
 * it logs, in any module, names the update.
 */
export function inUpdateScope<T>(
  updateId: number,
  receivedAt: number,
  fn: () => Promise<T>,
): Promise<T> {
  return current.run({ updateId, receivedAt, calls: 0 }, fn);
}

/** The update being handled as a request id (`update:<id>`), for `createShop({ requestId })`. */
export function updateRequestId(): string | undefined {
  const updateId = current.getStore()?.updateId;
  return updateId === undefined ? undefined : `update:${updateId}`;
}

/**
 * `<update id>:<n>` for the n-th call that asks for one while the update is handled: the same key
 * for the same reply when Telegram re-delivers the update. Undefined outside an update.
 */
export function nextCallKey(): string | undefined {
  const store = current.getStore();
  return store === undefined ? undefined : `${store.updateId}:${store.calls++}`;
}

/** When the update being handled reached this process (`performance.now()`); undefined outside one. */
export function updateReceivedAt(): number | undefined {
  return current.getStore()?.receivedAt;
}

/**
 * A pino mixin (see createLogger's `mixin`) that adds `updateId` to every line logged while an
 * update is handled: the domain services and the lock module log through loggers that know
 * nothing of Telegram. Lines whose logger already carries the id (ctx.logger) are left alone.
 */
export function updateIdMixin(_object: object, _level: number, logger: Logger): object {
  const updateId = current.getStore()?.updateId;
  return updateId === undefined || "updateId" in logger.bindings() ? {} : { updateId };
}
