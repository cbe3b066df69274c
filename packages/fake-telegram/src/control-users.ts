// The control API's actions of simulated people: create a user or a group, and send, send a photo,
// press a button or pay as a user. Each takes the request's body as sent and answers plain JSON.
import { FakeTelegramError } from "./errors.ts";
import type { FakeTelegram } from "./fake-telegram.ts";
import type { SimulatedUser } from "./users.ts";
import { readBuyer } from "./web/buyer.ts";

export type Body = Record<string, unknown>;

function userOf(tg: FakeTelegram, id: string): SimulatedUser {
  const found = tg.user(Number(id));
  if (!found) throw new FakeTelegramError(`no simulated user ${id}`);
  return found;
}

/** The chat a body names by `chatId`; none: the user's private chat. */
function where(body: Body): { in?: number } {
  return typeof body.chatId === "number" ? { in: body.chatId } : {};
}

export function createUser(tg: FakeTelegram, body: Body): unknown {
  return tg.createUser(body as Parameters<FakeTelegram["createUser"]>[0]).user;
}

export async function sendAs(tg: FakeTelegram, id: string, body: Body): Promise<unknown> {
  const sent = await userOf(tg, id).send(String(body.text ?? ""), {
    ...where(body),
    ...(typeof body.replyTo === "number" ? { replyTo: body.replyTo } : {}),
  });
  return { updateId: sent.updateId, message: sent.message };
}

export async function sendPhotoAs(tg: FakeTelegram, id: string, body: Body): Promise<unknown> {
  const caption = typeof body.caption === "string" ? { caption: body.caption } : {};
  const sent = await userOf(tg, id).sendPhoto({ ...where(body), ...caption });
  return { updateId: sent.updateId, message: sent.message };
}

/** Presses a button by its callback `data`, or else by its `label`. */
export async function pressAs(tg: FakeTelegram, id: string, body: Body): Promise<unknown> {
  const options = {
    ...where(body),
    ...(typeof body.messageId === "number" ? { messageId: body.messageId } : {}),
  };
  const simulated = userOf(tg, id);
  const press =
    typeof body.data === "string"
      ? await simulated.pressData(body.data, options)
      : await simulated.press(String(body.label ?? ""), options);
  return { updateId: press.updateId, callbackQueryId: press.callbackQueryId, data: press.data };
}

/** Pays an invoice; the result without its updates' handles, which JSON cannot carry. */
export async function payAs(tg: FakeTelegram, id: string, body: Body): Promise<unknown> {
  const buyer = readBuyer(body.buyer);
  const result = await userOf(tg, id).pay({
    ...where(body),
    ...(buyer ? { buyer } : {}),
    ...(typeof body.messageId === "number" ? { invoice: body.messageId } : {}),
  });
  const {
    preCheckout: _p,
    handled: _h,
    ...plain
  } = result as typeof result & { handled?: unknown };
  return plain;
}

export function createGroup(tg: FakeTelegram, body: Body): unknown {
  const people = (ids: unknown): SimulatedUser[] =>
    Array.isArray(ids) ? ids.map((id) => userOf(tg, String(id))) : [];
  const group = tg.createGroup({
    title: String(body.title ?? "Group"),
    admins: people(body.adminIds),
    members: people(body.memberIds),
    ...(body.creatorId !== undefined ? { creator: userOf(tg, String(body.creatorId)) } : {}),
  });
  return { chatId: group.chatId, chat: group.chat };
}
