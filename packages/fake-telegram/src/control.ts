// The control API of a standalone fake (under /_kit): create users and groups, act as them, and
// read chats, calls and deliveries from another process (curl, a demo script, a benchmark).
import type { FastifyInstance } from "fastify";
import { FakeTelegramError } from "./errors.ts";
import type { DeliveryFaults, MethodFault } from "./faults.ts";
import type { FakeTelegram } from "./fake-telegram.ts";
import type { SimulatedUser } from "./users.ts";
import { readBuyer } from "./web/buyer.ts";
import { handled } from "./web/handled.ts";

type Body = Record<string, unknown>;

export function controlRoutes(kit: () => FakeTelegram): (app: FastifyInstance) => void {
  return (app) => {
    const user = (id: string): SimulatedUser => {
      const found = kit().user(Number(id));
      if (!found) throw new FakeTelegramError(`no simulated user ${id}`);
      return found;
    };
    const where = (body: Body): { in?: number } =>
      typeof body.chatId === "number" ? { in: body.chatId } : {};
    const handle = handled;

    app.get("/_kit", async () => {
      const tg = kit();
      return { apiRoot: tg.apiRoot, token: tg.token, bot: tg.botInfo, webhook: tg.webhookInfo() };
    });
    app.post<{ Body: Body }>("/_kit/users", async (request, reply) =>
      handle(
        reply,
        () =>
          kit().createUser((request.body ?? {}) as Parameters<FakeTelegram["createUser"]>[0]).user,
      ),
    );
    app.post<{ Params: { id: string }; Body: Body }>(
      "/_kit/users/:id/send",
      async (request, reply) =>
        handle(reply, async () => {
          const body = request.body ?? {};
          const sent = await user(request.params.id).send(String(body.text ?? ""), {
            ...where(body),
            ...(typeof body.replyTo === "number" ? { replyTo: body.replyTo } : {}),
          });
          return { updateId: sent.updateId, message: sent.message };
        }),
    );
    app.post<{ Params: { id: string }; Body: Body }>(
      "/_kit/users/:id/photo",
      async (request, reply) =>
        handle(reply, async () => {
          const body = request.body ?? {};
          const caption = typeof body.caption === "string" ? { caption: body.caption } : {};
          const sent = await user(request.params.id).sendPhoto({ ...where(body), ...caption });
          return { updateId: sent.updateId, message: sent.message };
        }),
    );
    app.post<{ Params: { id: string }; Body: Body }>(
      "/_kit/users/:id/press",
      async (request, reply) =>
        handle(reply, async () => {
          const body = request.body ?? {};
          const options = {
            ...where(body),
            ...(typeof body.messageId === "number" ? { messageId: body.messageId } : {}),
          };
          const simulated = user(request.params.id);
          const press =
            typeof body.data === "string"
              ? await simulated.pressData(body.data, options)
              : await simulated.press(String(body.label ?? ""), options);
          return {
            updateId: press.updateId,
            callbackQueryId: press.callbackQueryId,
            data: press.data,
          };
        }),
    );
    app.post<{ Params: { id: string }; Body: Body }>(
      "/_kit/users/:id/pay",
      async (request, reply) =>
        handle(reply, async () => {
          const body = request.body ?? {};
          const buyer = readBuyer(body.buyer);
          const result = await user(request.params.id).pay({
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
        }),
    );
    app.post<{ Body: Body }>("/_kit/groups", async (request, reply) =>
      handle(reply, () => {
        const body = request.body ?? {};
        const people = (ids: unknown): SimulatedUser[] =>
          Array.isArray(ids) ? ids.map((id) => user(String(id))) : [];
        const group = kit().createGroup({
          title: String(body.title ?? "Group"),
          admins: people(body.adminIds),
          members: people(body.memberIds),
          ...(body.creatorId !== undefined ? { creator: user(String(body.creatorId)) } : {}),
        });
        return { chatId: group.chatId, chat: group.chat };
      }),
    );
    app.get<{ Params: { id: string } }>("/_kit/chats/:id", async (request, reply) =>
      handle(reply, () => {
        const chatId = Number(request.params.id);
        try {
          return kit().chat(chatId);
        } catch {
          throw new FakeTelegramError(`no chat ${request.params.id}`);
        }
      }),
    );
    app.get<{ Querystring: { since?: string } }>("/_kit/calls", async (request) =>
      kit().calls.filter((c) => c.seq > Number(request.query.since ?? 0)),
    );
    app.get("/_kit/deliveries", async () =>
      kit().deliveries.map((d) => ({
        updateId: d.update.update_id,
        type: d.type,
        status: d.status,
        attempts: d.attempts,
      })),
    );
    app.get("/_kit/stars", async () => kit().starTransactions);
    app.post<{ Body: Body }>("/_kit/stars/charges", async (request, reply) =>
      handle(reply, () => {
        const body = request.body ?? {};
        return kit().seedStarCharge({
          user: Number(body.userId),
          amount: Number(body.amount),
          ...(typeof body.payload === "string" ? { payload: body.payload } : {}),
        });
      }),
    );
    app.post<{ Params: { id: string } }>("/_kit/stars/charges/:id/refund", async (request, reply) =>
      handle(reply, () => kit().refundFromOutside(request.params.id)),
    );
    app.put<{ Body: { rules?: MethodFault[]; delivery?: DeliveryFaults } }>(
      "/_kit/faults",
      async (request) => {
        const tg = kit();
        tg.faults.clear();
        for (const rule of request.body?.rules ?? []) tg.faults.set(rule);
        if (request.body?.delivery) tg.faults.delivery(request.body.delivery);
        return { ok: true };
      },
    );
    app.delete("/_kit/faults", async () => {
      kit().faults.clear();
      return { ok: true };
    });
  };
}
