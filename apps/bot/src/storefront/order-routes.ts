// A customer's orders: one by id (owner-scoped: another customer's answers exactly as a missing
// one, 404), the newest of theirs, and an invoice link to pay one.
import type { FastifyInstance, FastifyReply } from "fastify";
import { z } from "zod";
import type { OrderService } from "@orderbot/core/orders";
import { PUBLIC_ID_PATTERN } from "@orderbot/core/orders";
import {
  createOrderInvoiceLink,
  type InvoiceLinkDeps,
  type InvoiceLinkResult,
} from "./invoice-link.ts";
import { orderJson } from "./json.ts";
import { badRequest, parse } from "./requests.ts";
import { shopperOf } from "./shopper.ts";

const MY_ORDERS = 20;
const orderParams = z.object({ id: z.string().regex(PUBLIC_ID_PATTERN, "an order id") });
/** The client's key for one Pay: a retry of it (a lost answer) makes the link again. */
const linkBody = z.object({
  attemptKey: z.string().regex(/^[A-Za-z0-9_-]{16,64}$/, "16-64 characters of A-Z a-z 0-9 _ -"),
});
const NOT_FOUND = { status: "not-found" } as const;

export function orderRoutes(
  app: FastifyInstance,
  orders: OrderService,
  invoices: InvoiceLinkDeps,
): void {
  app.get("/orders", async (request) => {
    const mine = await orders.listForUser(shopperOf(request).userId, MY_ORDERS);
    return { orders: mine.map(orderJson) };
  });

  app.get("/orders/:id", async (request, reply) => {
    const params = parse(orderParams, request.params);
    if (!params.ok) return reply.code(404).send(NOT_FOUND);
    const order = await orders.getOwn(params.value.id, shopperOf(request).userId);
    if (!order) return reply.code(404).send(NOT_FOUND);
    return { order: orderJson(order) };
  });

  app.post("/orders/:id/invoice-link", async (request, reply) => {
    const params = parse(orderParams, request.params);
    if (!params.ok) return reply.code(404).send(NOT_FOUND);
    const shopper = shopperOf(request);
    const body = parse(linkBody, request.body);
    if (!body.ok) return badRequest(reply, body.problems);
    const order = await orders.getOwn(params.value.id, shopper.userId);
    const attempt = body.value.attemptKey;
    return sendLink(reply, await createOrderInvoiceLink(invoices, order, shopper, attempt));
  });
}

function sendLink(reply: FastifyReply, result: InvoiceLinkResult) {
  switch (result.status) {
    case "ok": {
      const { terms } = result;
      return reply.send({
        status: "ok",
        url: result.url,
        amount: { minor: terms.amountMinor, currency: terms.currency },
        payVia: terms.payVia,
      });
    }
    case "not-found":
      return reply.code(404).send(NOT_FOUND);
    case "refused":
    case "not-sold":
      return reply
        .code(409)
        .send({ status: result.status, reason: result.reason, order: orderJson(result.order) });
    case "invoice-pending":
      return reply.code(409).header("retry-after", "60").send({ status: result.status });
    case "invoice-refused":
      return reply.code(502).send({ status: result.status });
  }
}
