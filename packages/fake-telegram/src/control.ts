// The control API of a standalone fake (under /_kit): create users and groups, act as them, and
// read chats, calls and deliveries from another process (curl, a demo script, a benchmark).
import type { FastifyInstance } from "fastify";
import {
  type Body,
  createGroup,
  createUser,
  payAs,
  pressAs,
  sendAs,
  sendPhotoAs,
} from "./control-users.ts";
import { FakeTelegramError } from "./errors.ts";
import type { DeliveryFaults, MethodFault } from "./faults.ts";
import type { FakeTelegram } from "./fake-telegram.ts";
import { handled } from "./web/handled.ts";

type Kit = () => FakeTelegram;
type PersonAction = (tg: FakeTelegram, id: string, body: Body) => Promise<unknown>;
type ById = { Params: { id: string } };

export function controlRoutes(kit: Kit): (app: FastifyInstance) => void {
  return (app) => {
    userRoutes(app, kit);
    stateRoutes(app, kit);
    starRoutes(app, kit);
    faultRoutes(app, kit);
  };
}

/** Simulated people: created, then acting through POST /_kit/users/:id/<action>. */
function userRoutes(app: FastifyInstance, kit: Kit): void {
  app.post<{ Body: Body }>("/_kit/users", async (request, reply) =>
    handled(reply, () => createUser(kit(), request.body ?? {})),
  );
  const act = (path: string, action: PersonAction): void => {
    app.post<ById & { Body: Body }>(path, async (request, reply) =>
      handled(reply, () => action(kit(), request.params.id, request.body ?? {})),
    );
  };
  act("/_kit/users/:id/send", sendAs);
  act("/_kit/users/:id/photo", sendPhotoAs);
  act("/_kit/users/:id/press", pressAs);
  act("/_kit/users/:id/pay", payAs);
  app.post<{ Body: Body }>("/_kit/groups", async (request, reply) =>
    handled(reply, () => createGroup(kit(), request.body ?? {})),
  );
}

/** What the fake holds: its identity, a chat, the Bot API calls and the updates delivered. */
function stateRoutes(app: FastifyInstance, kit: Kit): void {
  app.get("/_kit", async () => kitInfo(kit()));
  app.get<ById>("/_kit/chats/:id", async (request, reply) =>
    handled(reply, () => chatOf(kit(), request.params.id)),
  );
  app.get<{ Querystring: { since?: string } }>("/_kit/calls", async (request) =>
    kit().calls.filter((c) => c.seq > Number(request.query.since ?? 0)),
  );
  app.get("/_kit/deliveries", async () => deliveries(kit()));
}

function kitInfo(tg: FakeTelegram): unknown {
  return { apiRoot: tg.apiRoot, token: tg.token, bot: tg.botInfo, webhook: tg.webhookInfo() };
}

function chatOf(tg: FakeTelegram, id: string): unknown {
  try {
    return tg.chat(Number(id));
  } catch {
    throw new FakeTelegramError(`no chat ${id}`);
  }
}

function deliveries(tg: FakeTelegram): unknown {
  return tg.deliveries.map((d) => ({
    updateId: d.update.update_id,
    type: d.type,
    status: d.status,
    attempts: d.attempts,
  }));
}

/** The Stars ledger: read it, seed a charge, refund one as if from outside the bot. */
function starRoutes(app: FastifyInstance, kit: Kit): void {
  app.get("/_kit/stars", async () => kit().starTransactions);
  app.post<{ Body: Body }>("/_kit/stars/charges", async (request, reply) =>
    handled(reply, () => seedCharge(kit(), request.body ?? {})),
  );
  app.post<ById>("/_kit/stars/charges/:id/refund", async (request, reply) =>
    handled(reply, () => kit().refundFromOutside(request.params.id)),
  );
}

function seedCharge(tg: FakeTelegram, body: Body): unknown {
  return tg.seedStarCharge({
    user: Number(body.userId),
    amount: Number(body.amount),
    ...(typeof body.payload === "string" ? { payload: body.payload } : {}),
  });
}

function faultRoutes(app: FastifyInstance, kit: Kit): void {
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
}
