// Waiting for the bot: "the next message to chat X matching Y", without sleeping in tests.
import { WaitTimeoutError } from "./errors.ts";
import type { ChatEvent, TelegramState } from "./state.ts";
import type { TgMessage } from "./types.ts";

/** Text to look for (substring), a pattern, or a predicate on the message. */
export type MessageMatch = string | RegExp | ((message: TgMessage) => boolean);

export interface WaitForMessageOptions {
  /** Default 5000. */
  timeoutMs?: number;
  /**
   * Only messages after this point (a seq from `history`). Default: the last simulated-user action
   * in the chat, so a wait after `user.send(...)` sees the bot's reply even if it came already.
   */
  after?: number;
  /** Also match edits of older messages (an edited message counts at the time of the edit). */
  edits?: boolean;
}

/** What a message says, for matching: its text, a caption, or an invoice's title and description. */
export function messageText(message: TgMessage): string {
  if (message.text !== undefined) return message.text;
  if (message.caption !== undefined) return message.caption;
  if (message.invoice) return `${message.invoice.title}\n${message.invoice.description}`;
  return "";
}

export function matcher(match: MessageMatch | undefined): (message: TgMessage) => boolean {
  if (match === undefined) return () => true;
  if (typeof match === "string") return (m) => messageText(m).includes(match);
  if (match instanceof RegExp) return (m) => match.test(messageText(m));
  return match;
}

export function waitForMessage(
  state: TelegramState,
  chatId: number,
  match: MessageMatch | undefined,
  options: WaitForMessageOptions = {},
): Promise<TgMessage> {
  const chat = state.requireChat(chatId);
  const after = options.after ?? chat.userCursor;
  const timeoutMs = options.timeoutMs ?? 5_000;
  const accepts = matcher(match);
  const candidates = (): ChatEvent[] =>
    chat.events.filter(
      (e) =>
        e.seq > after &&
        e.by === "bot" &&
        (e.kind === "sent" || (options.edits === true && e.kind === "edited")),
    );
  const find = (): TgMessage | undefined => candidates().find((e) => accepts(e.message))?.message;
  const found = find();
  if (found) return Promise.resolve(structuredClone(found));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      unsubscribe();
      const seen = candidates().map(
        (e) => `${e.kind} #${e.message.message_id}: ${JSON.stringify(messageText(e.message))}`,
      );
      reject(
        new WaitTimeoutError(
          `a bot message in chat ${chatId} matching ${String(match ?? "anything")}`,
          timeoutMs,
          seen,
        ),
      );
    }, timeoutMs);
    const unsubscribe = state.subscribe(() => {
      const message = find();
      if (!message) return;
      clearTimeout(timer);
      unsubscribe();
      resolve(structuredClone(message));
    });
  });
}

/** Resolves when `check` returns a value (checked on every change), or fails after the timeout. */
export function waitForState<T>(
  state: TelegramState,
  check: () => T | undefined,
  timeoutMs: number,
  onTimeout: () => T | Error,
): Promise<T> {
  const now = check();
  if (now !== undefined) return Promise.resolve(now);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      unsubscribe();
      const outcome = onTimeout();
      if (outcome instanceof Error) reject(outcome);
      else resolve(outcome);
    }, timeoutMs);
    timer.unref();
    const unsubscribe = state.subscribe(() => {
      const value = check();
      if (value === undefined) return;
      clearTimeout(timer);
      unsubscribe();
      resolve(value);
    });
  });
}
