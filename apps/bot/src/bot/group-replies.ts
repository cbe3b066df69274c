import type { Transformer } from "grammy";
import type { Message } from "grammy/types";
import { confirmGroupReply, queueGroupReply, reserveGroupReply } from "@orderbot/core/outbox";
import type { Database } from "@orderbot/db";
import type { Logger } from "@orderbot/platform";
import { nextCallKey } from "../updates/scope.ts";

/** Telegram's group limit, shared with the worker's relay (its pacer counts these replies too). */
const GROUP_PER_WINDOW = 20;
/** Added to the window, as the relay's pacer adds its margin (ms). */
const WINDOW_MARGIN_MS = 1_000;
/** A direct send that failed without a retry_after: the relay tries after this (ms). */
const RETRY_MS = 1_000;

export interface GroupReplyDeps {
  db: Database;
  logger: Logger;
  /** Telegram's window for a group's messages (GROUP_RATE_WINDOW_MS). */
  windowMs: number;
  /** Messages per window: Telegram's 20 unless a fake Telegram without a group limit stands in. */
  perWindow?: number;
  /** How long a direct send hides its row from the relay: longer than the call's deadline (api-calls.ts). */
  claimMs: number;
}

/** What a handler gets back for a reply the relay sends later: message_id 0, no such message yet. */
function queuedMessage(chatId: number, payload: Record<string, unknown>): Message.TextMessage {
  return {
    message_id: 0,
    date: Math.floor(Date.now() / 1000),
    chat: { id: chatId, type: "supergroup", title: "" },
    text: typeof payload.text === "string" ? payload.text : "",
  };
}

/** Records a direct send; if that fails, the relay sends the reply again once its claim passes. */
async function confirmed<T>(deps: GroupReplyDeps, dedupeKey: string, response: T): Promise<T> {
  await confirmGroupReply(deps.db, dedupeKey).catch((error: unknown) =>
    deps.logger.warn({ err: error }, "group reply sent but not recorded: the relay may repeat it"),
  );
  return response;
}

/**
 * The bot's messages to a group while it handles an update: booked in the group's budget, which
 * the worker's sends share (core/outbox/group-replies.ts), keyed by the update and the reply's
 * place in it. A reply with no room, or whose send fails for a reason other than a refusal (a
 * long 429, a 5xx, the network), is left to the relay: the update succeeds, so Telegram does not
 * deliver it again and its replies are not sent twice. A bot that dies mid-send leaves the reply
 * to the relay too (the booking's claim, core/outbox/group-replies.ts).
 */
export function pacedGroupReplies(deps: GroupReplyDeps): Transformer {
  return async (prev, method, payload, signal) => {
    const params = payload as Record<string, unknown>;
    const chatId = params.chat_id;
    if (method !== "sendMessage" || typeof chatId !== "number" || chatId >= 0)
      return prev(method, payload, signal);
    const key = nextCallKey();
    if (key === undefined) return prev(method, payload, signal);
    const { chat_id: _, ...rest } = params;
    const dedupeKey = `reply:${chatId}:${key}`;
    const decision = await reserveGroupReply(deps.db, {
      dedupeKey,
      chatId: BigInt(chatId),
      payload: JSON.parse(JSON.stringify(rest)) as Record<string, never>,
      perWindow: deps.perWindow ?? GROUP_PER_WINDOW,
      windowMs: deps.windowMs + WINDOW_MARGIN_MS,
      claimMs: deps.claimMs,
    });
    const queued = { ok: true as const, result: queuedMessage(chatId, params) as never };
    if (decision !== "send") return queued;
    let response: Awaited<ReturnType<typeof prev>> | undefined;
    let failure: string;
    try {
      response = await prev(method, payload, signal);
      if (response.ok) return await confirmed(deps, dedupeKey, response);
      // A refusal would be refused again: the error boundary logs it, as for any other call. A
      // group that became a supergroup is no refusal: the relay sends the reply to its new id.
      const moved = response.parameters?.migrate_to_chat_id !== undefined;
      if (!moved && (response.error_code === 400 || response.error_code === 403)) {
        await queueGroupReply(deps.db, dedupeKey, 0, response.description, "DEAD");
        return response;
      }
      failure = `${response.error_code} ${response.description}`;
    } catch (error) {
      failure = error instanceof Error ? error.name : "error";
    }
    const retryAfter = response && !response.ok ? response.parameters?.retry_after : undefined;
    await queueGroupReply(deps.db, dedupeKey, retryAfter ? retryAfter * 1000 : RETRY_MS, failure);
    deps.logger.warn({ method, failure }, "group reply left to the outbox relay");
    return queued;
  };
}
