// "Ask the shop": a customer's request for help, recorded and shown to the operators. /paysupport
// uses it today; a free-text question can reuse it with another topic.
import { runTransaction } from "@orderbot/db";
import { z } from "zod";
import { violatedUniqueIndex } from "../database/db-errors.ts";
import type { CoreDeps } from "../deps.ts";
import { recordEvent } from "../events/record.ts";
import type { ShopEvent } from "../events/kinds.ts";
import { lockOpenRequests, MAX_OPEN_SUPPORT_REQUESTS } from "./open-requests.ts";
import { invalid, NOT_FOUND, type Invalid, type NotFound } from "../results.ts";
import { parseWith, telegramId } from "../validation.ts";

/**
 * Orders listed with a request: enough for an operator to see what it is about. One line each,
 * "ID STATUS MINOR CURRENCY": the worker shows the state and the amount in the group's words.
 */
const RECENT_ORDERS = 5;
/** The stored text fits one Telegram message with the alert's header (checked in the database too). */
export const MAX_SUPPORT_TEXT = 3500;

/** paysupport: /paysupport; question: "Ask the shop" (a message the bot did not understand). */
export const SUPPORT_TOPICS = ["paysupport", "question"] as const;
export type SupportTopic = (typeof SUPPORT_TOPICS)[number];

export interface OpenSupportRequestInput {
  userId: bigint | number | string;
  /** The private chat it was asked from: answers go there. */
  chatId: bigint | number | string;
  topic: SupportTopic;
  /** What the customer wrote (may be empty). */
  text: string;
  /** How operators know them: their Telegram name and @username. Shown to operators only. */
  customer: { name: string; username?: string | undefined };
  /**
   * What the way in names this request by (the chat: the message an "Ask the shop" press passes
   * on): asking again with the same key finds the first request instead of opening another.
   */
  requestKey?: string;
}

export type OpenSupportRequestResult =
  | {
      status: "ok";
      requestId: number;
      /** Operator groups alerted (0: none bound, or a replay). */ alerted: number;
      /** Its key was asked under before: this is that request, alerted then. */
      replayed?: boolean;
    }
  /** The customer has `max` requests open already: nothing recorded, nothing alerted. */
  | { status: "too-many"; max: number }
  | Invalid;

const inputSchema = z.object({
  userId: telegramId,
  chatId: telegramId,
  topic: z.enum(SUPPORT_TOPICS),
  text: z.string().max(MAX_SUPPORT_TEXT),
  requestKey: z.string().min(1).max(128).optional(),
  customer: z.object({
    name: z.string().min(1).max(128),
    username: z
      .string()
      .regex(/^[A-Za-z0-9_]{1,32}$/, "username")
      .optional(),
  }),
});

/** The alert's dedupe key: one alert per request and group, however often it is retried. */
export const supportRequestKey = (requestId: number) => `support:${requestId}`;

export interface AnswerSupportRequestInput {
  requestId: number;
  /**
   * What names this answer, so that a re-delivered one is queued once: the bot gives the group
   * and the message the operator wrote it as.
   */
  answerKey: string;
  text: string;
}

export type AnswerSupportRequestResult = { status: "ok"; queued: boolean } | NotFound | Invalid;

const answerSchema = z.object({
  requestId: z.number().int().min(1),
  answerKey: z.string().min(1).max(128),
  text: z.string().trim().min(1).max(MAX_SUPPORT_TEXT),
});

export type SupportRequests = ReturnType<typeof createSupportRequests>;

export function createSupportRequests(deps: CoreDeps) {
  return {
    /**
     * Records the request and, in the same transaction, queues its alert to every operator group
     * (or OPERATOR_GROUP_ID before one is bound) with the customer's latest orders.
     */
    open: (raw: OpenSupportRequestInput) => openRequest(deps, raw),
    /**
     * An operator's answer (a reply to the request's alert in their group), queued to the
     * customer's chat. Keyed by the operator's message: Telegram re-delivering it queues nothing new.
     */
    answer: (raw: AnswerSupportRequestInput) => answerRequest(deps, raw),
  };
}

type Input = z.output<typeof inputSchema>;

async function openRequest(
  deps: CoreDeps,
  raw: OpenSupportRequestInput,
): Promise<OpenSupportRequestResult> {
  const parsed = parseWith(inputSchema, raw);
  if (!parsed.ok) return invalid(parsed.problems);
  const input = parsed.value;
  const before = await earlierRequest(deps, input);
  if (before) return { status: "ok", requestId: before.id, alerted: 0, replayed: true };
  const orders = await recentOrders(deps, input);
  let result: Recorded;
  try {
    result = await recordRequest(deps, input, orders);
  } catch (error) {
    // Two requests at once under one key: the unique index let one in; this is the other.
    const raced = violatedUniqueIndex(error) || violatedUniqueIndex((error as Error).cause);
    const first = raced ? await earlierRequest(deps, input) : null;
    if (!first) throw error;
    return { status: "ok", requestId: first.id, alerted: 0, replayed: true };
  }
  if (result.status === "too-many") {
    deps.logger.info({ user: deps.mask(input.userId) }, "support request refused: too many open");
    return result;
  }
  // The request id only: the customer's name and words stay out of the logs.
  deps.logger.info(
    { request: result.requestId, topic: input.topic, user: deps.mask(input.userId) },
    "support request opened",
  );
  return result;
}

/** The request already opened under this key, if any. */
async function earlierRequest(deps: CoreDeps, input: Input): Promise<{ id: number } | null> {
  if (input.requestKey === undefined) return null;
  return deps.db.supportRequest.findUnique({
    where: { requestKey: input.requestKey },
    select: { id: true },
  });
}

type RecentOrder = Extract<ShopEvent, { kind: "question.asked" }>["orders"][number];

/** The asker's latest orders, newest first. */
async function recentOrders(deps: CoreDeps, input: Input): Promise<RecentOrder[]> {
  const recent = await deps.db.order.findMany({
    where: { userId: input.userId },
    orderBy: { createdAt: "desc" },
    take: RECENT_ORDERS,
    select: { publicId: true, status: true, totalMinor: true, currency: true },
  });
  return recent.map((o) => ({
    orderId: o.publicId,
    status: o.status,
    amountMinor: o.totalMinor,
    currency: o.currency,
  }));
}

type Recorded = Exclude<OpenSupportRequestResult, Invalid>;

/** The request and its alert, in one transaction, unless the customer has too many open. */
function recordRequest(deps: CoreDeps, input: Input, orders: RecentOrder[]): Promise<Recorded> {
  return runTransaction(
    deps.db,
    async (tx): Promise<Recorded> => {
      const open = await lockOpenRequests(tx, input.userId, deps.clock.now());
      if (open >= MAX_OPEN_SUPPORT_REQUESTS)
        return { status: "too-many", max: MAX_OPEN_SUPPORT_REQUESTS };
      const row = await tx.supportRequest.create({
        data: {
          userId: input.userId,
          chatId: input.chatId,
          topic: input.topic,
          text: input.text,
          requestKey: input.requestKey ?? null,
        },
      });
      const customer = { userId: String(input.userId), ...input.customer };
      const alerted = await recordEvent(
        tx,
        {
          kind: "question.asked",
          requestId: row.id,
          topic: input.topic,
          customer,
          text: input.text,
          orders,
        },
        { dedupeKey: supportRequestKey(row.id) },
        deps.config.fallbackOperatorChatId,
      );
      return { status: "ok", requestId: row.id, alerted };
    },
    { timeoutMs: deps.config.transactionTimeoutMs, maxWaitMs: deps.config.transactionMaxWaitMs },
  );
}

async function answerRequest(
  deps: CoreDeps,
  raw: AnswerSupportRequestInput,
): Promise<AnswerSupportRequestResult> {
  const parsed = parseWith(answerSchema, raw);
  if (!parsed.ok) return invalid(parsed.problems);
  const input = parsed.value;
  const request = await deps.db.supportRequest.findUnique({ where: { id: input.requestId } });
  if (!request) return NOT_FOUND;
  // The answer is queued with the request's "answered": both or neither.
  const queued = await runTransaction(deps.db, async (tx) => {
    await tx.supportRequest.updateMany({
      where: { id: request.id, answeredAt: null },
      data: { answeredAt: deps.clock.now() },
    });
    const event = { kind: "question.answered", requestId: request.id, text: input.text } as const;
    const keys = {
      dedupeKey: `question.answered:${input.answerKey}`,
      deliveryKey: `support-answer:${input.answerKey}`,
    };
    return recordEvent(tx, event, keys, undefined);
  });
  deps.logger.info({ request: request.id, queued: queued === 1 }, "support request answered");
  return { status: "ok", queued: queued === 1 };
}
