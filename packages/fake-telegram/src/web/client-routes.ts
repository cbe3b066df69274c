// The control API's routes that the web client adds: the chat list, making a user a group's admin,
// attaching a document, and waiting for the answer to a button press. Each acts through the same
// simulated users and groups that tests use, so the bot sees the updates Telegram would send.
import type { FastifyInstance } from "fastify";
import { FakeTelegramError } from "../errors.ts";
import type { FakeTelegram } from "../fake-telegram.ts";
import { SimulatedGroup } from "../groups.ts";
import type { KitContext } from "../methods/context.ts";
import { waitForState } from "../waits.ts";
import { chatList } from "./chat-list.ts";
import { handled } from "./handled.ts";

type Body = Record<string, unknown>;

export function clientRoutes(
  ctx: KitContext,
  kit: () => FakeTelegram,
): (app: FastifyInstance) => void {
  return (app) => {
    app.get("/_kit/chats", async () => chatList(ctx.state));
    app.post<{ Params: { id: string }; Body: Body }>(
      "/_kit/groups/:id/admins",
      async (request, reply) =>
        handled(reply, () => makeAdmin(ctx, kit(), request.params.id, request.body ?? {})),
    );
    app.post<{ Params: { id: string }; Body: Body }>(
      "/_kit/users/:id/document",
      async (request, reply) =>
        handled(reply, () => sendDocument(kit(), request.params.id, request.body ?? {})),
    );
    app.get<{ Params: { id: string } }>("/_kit/callbacks/:id/answer", async (request, reply) =>
      handled(reply, () => callbackAnswer(ctx, request.params.id)),
    );
  };
}

function makeAdmin(ctx: KitContext, tg: FakeTelegram, groupId: string, body: Body): unknown {
  const record = ctx.state.chats.get(Number(groupId));
  if (!record || record.chat.type === "private") throw new FakeTelegramError(`no group ${groupId}`);
  const person = tg.user(Number(body.userId));
  if (!person) throw new FakeTelegramError(`no simulated user ${String(body.userId)}`);
  const group = new SimulatedGroup(ctx, record.chat);
  const before = group.status(person);
  if (before === "kicked")
    throw new FakeTelegramError(`user ${person.id} is banned from chat ${record.chat.id}`);
  if (before === "left") group.join(person);
  if (before !== "creator" && before !== "administrator") group.promote(person);
  return { userId: person.id, status: group.status(person) };
}

async function sendDocument(tg: FakeTelegram, userId: string, body: Body): Promise<unknown> {
  const person = tg.user(Number(userId));
  if (!person) throw new FakeTelegramError(`no simulated user ${userId}`);
  if (typeof body.fileName !== "string" || body.fileName.trim() === "")
    throw new FakeTelegramError("a document needs a fileName");
  if (typeof body.content !== "string")
    throw new FakeTelegramError("a document needs its content, base64-encoded");
  const sent = await person.sendDocument({
    fileName: body.fileName,
    content: Buffer.from(body.content, "base64"),
    ...(typeof body.mimeType === "string" && body.mimeType ? { mimeType: body.mimeType } : {}),
    ...(typeof body.caption === "string" && body.caption ? { caption: body.caption } : {}),
    ...(typeof body.chatId === "number" ? { in: body.chatId } : {}),
  });
  return { updateId: sent.updateId, message: sent.message };
}

/** The bot's answerCallbackQuery, once it comes; `answer: null` if it never does in time. */
async function callbackAnswer(ctx: KitContext, queryId: string): Promise<unknown> {
  const { state } = ctx;
  if (!state.callbackQueries.has(queryId))
    throw new FakeTelegramError(`no callback query ${queryId}`);
  const answer = await waitForState(
    state,
    () => state.callbackQueries.get(queryId)?.answer,
    ctx.settings.callbackQueryTimeoutMs,
    () => null,
  );
  return { answer };
}
