import type { Api } from "grammy";
import type { Update } from "grammy/types";
import type { Logger } from "@orderbot/platform";
import { loggableError } from "../log-safety.ts";
import { chatIdOf } from "./parse.ts";
import type { ProcessUpdate } from "./pipeline.ts";

export interface PollerOptions {
  api: Api;
  processUpdate: ProcessUpdate;
  logger: Logger;
  allowedUpdates: readonly string[];
  /** Long-poll timeout in seconds; keep it below the API client's own timeout. */
  timeoutSeconds?: number;
  /**
   * A failing update is fetched again, after a growing pause, up to this many times, then skipped
   * with an error. With the default pauses (0.5 s doubling to 30 s) 12 attempts span about three
   * minutes: a database or Redis restart, not a bug that will never go away.
   */
  maxAttempts?: number;
  /** First pause after a failed round (ms), doubled per attempt of the update failing longest. */
  retryBaseMs?: number;
  /** Longest pause (ms). */
  retryMaxMs?: number;
}

/**
 * Long polling for development and for running against real Telegram without a public URL. It
 * feeds the same pipeline as the webhook: updates of one chat run one after another, different
 * chats run side by side, and an update is confirmed (offset advanced) only after it finished.
 * An update that failed, or that another process is still running ("in-progress": its `update`
 * lock is held, perhaps by a process that died), is fetched again after a pause, as Telegram
 * re-delivers a webhook that answered 500 or 503; only failures count towards giving up.
 */
export function startPolling(options: PollerOptions): { stop(): Promise<void>; done: Promise<void> } {
  const { api, processUpdate, logger } = options;
  const maxAttempts = options.maxAttempts ?? 12;
  const retryBaseMs = options.retryBaseMs ?? 500;
  const retryMaxMs = options.retryMaxMs ?? 30_000;
  const attempts = new Map<number, number>();
  const controller = new AbortController();
  let offset = 0;

  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms).unref();
      controller.signal.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true });
    });

  /** Runs a chat's updates in order; the id of the first one to fetch again, if any. */
  async function runChat(updates: Update[]): Promise<number | undefined> {
    for (const update of updates) {
      try {
        if ((await processUpdate(update)) === "in-progress") return update.update_id;
        attempts.delete(update.update_id);
      } catch {
        const count = (attempts.get(update.update_id) ?? 0) + 1;
        attempts.set(update.update_id, count);
        if (count < maxAttempts) return update.update_id; // fetch it (and its chat's later updates) again
        logger.error({ updateId: update.update_id, attempts: count }, "update skipped after repeated failures");
        attempts.delete(update.update_id);
      }
    }
    return undefined;
  }

  async function loop(): Promise<void> {
    while (!controller.signal.aborted) {
      let updates: Update[];
      try {
        updates = await api.getUpdates(
          { offset, timeout: options.timeoutSeconds ?? 15, allowed_updates: options.allowedUpdates as never },
          // grammY types the signal with its fetch shim's AbortSignal; Node's own is what it gets.
          controller.signal as Parameters<Api["getUpdates"]>[1],
        );
      } catch (error) {
        if (controller.signal.aborted) return;
        logger.warn({ err: loggableError(error) }, "getUpdates failed; retrying");
        await pause(1000);
        continue;
      }
      const byChat = new Map<number | string, Update[]>();
      for (const update of updates) {
        const key = chatIdOf(update) ?? `update:${update.update_id}`;
        byChat.set(key, [...(byChat.get(key) ?? []), update]);
      }
      const again = (await Promise.all([...byChat.values()].map(runChat))).filter((id) => id !== undefined);
      const last = updates.at(-1)?.update_id;
      if (again.length > 0) {
        offset = Math.min(...again);
        const failures = Math.max(...again.map((id) => attempts.get(id) ?? 0));
        await pause(Math.min(retryMaxMs, retryBaseMs * 2 ** Math.max(0, failures - 1)));
      } else if (last !== undefined) offset = last + 1;
    }
  }

  const done = loop();
  return {
    done,
    async stop() {
      controller.abort();
      await done;
    },
  };
}
