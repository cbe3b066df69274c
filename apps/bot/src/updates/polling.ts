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
  /** Long-poll timeout in seconds. */
  timeoutSeconds?: number;
  /** A failing update is fetched again up to this many times, then skipped with an error. */
  maxAttempts?: number;
}

/**
 * Long polling for development and for running against real Telegram without a public URL. It
 * feeds the same pipeline as the webhook: updates of one chat run one after another, different
 * chats run side by side, and an update is confirmed (offset advanced) only after it finished.
 */
export function startPolling(options: PollerOptions): { stop(): Promise<void>; done: Promise<void> } {
  const { api, processUpdate, logger } = options;
  const maxAttempts = options.maxAttempts ?? 5;
  const attempts = new Map<number, number>();
  const controller = new AbortController();
  let offset = 0;

  async function runChat(updates: Update[]): Promise<number | undefined> {
    for (const update of updates) {
      try {
        await processUpdate(update);
        attempts.delete(update.update_id);
      } catch {
        const count = (attempts.get(update.update_id) ?? 0) + 1;
        attempts.set(update.update_id, count);
        if (count < maxAttempts) return update.update_id; // fetch it (and its chat's later updates) again
        logger.error(
          { updateId: update.update_id, attempts: count },
          "update skipped after repeated failures",
        );
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
          { offset, timeout: options.timeoutSeconds ?? 25, allowed_updates: options.allowedUpdates as never },
          // grammY types the signal with its fetch shim's AbortSignal; Node's own is what it gets.
          controller.signal as Parameters<Api["getUpdates"]>[1],
        );
      } catch (error) {
        if (controller.signal.aborted) return;
        logger.warn({ err: loggableError(error) }, "getUpdates failed; retrying");
        await new Promise((resolve) => setTimeout(resolve, 1000).unref());
        continue;
      }
      const byChat = new Map<number | string, Update[]>();
      for (const update of updates) {
        const key = chatIdOf(update) ?? `update:${update.update_id}`;
        byChat.set(key, [...(byChat.get(key) ?? []), update]);
      }
      const failed = (await Promise.all([...byChat.values()].map(runChat))).filter((id) => id !== undefined);
      const last = updates.at(-1)?.update_id;
      if (failed.length > 0) offset = Math.min(...failed);
      else if (last !== undefined) offset = last + 1;
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
