// The cart, which is the chat's cart (one per customer, in PostgreSQL), and checkout through the
// same core command as the chat's Checkout button. The client makes an idempotency key per
// attempt and sends it again on a retry: core finds the order the first request placed.
import type { FastifyInstance, FastifyReply } from "fastify";
import { z } from "zod";
import type { CartService, CheckoutResult, SetCartLineResult } from "@orderbot/core/cart";
import { cartJson, orderJson } from "./json.ts";
import { badRequest, parse } from "./requests.ts";
import { shopperOf } from "./shopper.ts";

/** Kept apart from the chat's keys (`tap:...`) by its prefix; core adds the user id. */
const KEY_PREFIX = "app:";
const lineParams = z.object({ productId: z.coerce.number().int().min(1).max(2_147_483_647) });
const lineBody = z.object({ quantity: z.number().int().min(0).max(10_000) });
const checkoutBody = z.object({
  /** The cart revision the customer saw: a cart changed since then is shown again, not ordered. */
  revision: z.number().int().min(0),
  idempotencyKey: z.string().regex(/^[A-Za-z0-9_-]{16,64}$/, "16-64 characters of A-Z a-z 0-9 _ -"),
});

export function cartRoutes(app: FastifyInstance, cart: CartService): void {
  app.get("/cart", async (request) => cartJson(await cart.view(shopperOf(request).userId)));

  app.put("/cart/lines/:productId", async (request, reply) => {
    const params = parse(lineParams, request.params);
    const body = parse(lineBody, request.body);
    if (!params.ok || !body.ok)
      return badRequest(reply, [
        ...(params.ok ? [] : params.problems),
        ...(body.ok ? [] : body.problems),
      ]);
    const { userId } = shopperOf(request);
    const result = await cart.setQuantity({ userId, ...params.value, ...body.value });
    return sendLine(reply, result);
  });

  app.post("/checkout", async (request, reply) => {
    const body = parse(checkoutBody, request.body);
    if (!body.ok) return badRequest(reply, body.problems);
    const { userId } = shopperOf(request);
    const result = await cart.checkout({
      userId,
      // A Mini App's orders are the private chat's: the bot's notices about them go there.
      chatId: userId,
      revision: body.value.revision,
      idempotencyKey: `${KEY_PREFIX}${body.value.idempotencyKey}`,
    });
    return sendCheckout(reply, result);
  });
}

function sendLine(reply: FastifyReply, result: SetCartLineResult) {
  switch (result.status) {
    case "ok":
      return reply.send({ status: "ok", cart: cartJson(result.cart) });
    case "too-many-lines":
      return reply
        .code(409)
        .send({ status: result.status, max: result.max, cart: cartJson(result.cart) });
    case "too-many-units":
      return reply.code(409).send({ status: result.status, max: result.max });
    case "not-found":
      return reply.code(404).send({ status: result.status });
    case "invalid":
      return badRequest(reply, result.problems);
  }
}

function sendCheckout(reply: FastifyReply, result: CheckoutResult) {
  switch (result.status) {
    case "ok":
      return reply
        .code(result.replayed ? 200 : 201)
        .send({ status: "ok", replayed: result.replayed, order: orderJson(result.order) });
    case "cart-changed":
      return reply.code(409).send({ status: result.status, cart: cartJson(result.cart) });
    case "invalid":
      return badRequest(reply, result.problems);
    case "busy":
      return reply.code(409).header("retry-after", "1").send({ status: result.status });
    case "unavailable":
      return reply.code(503).header("retry-after", "5").send({ status: result.status });
    case "out-of-stock":
    case "limit":
    case "promo-refused":
    case "mixed-kinds":
    case "empty":
    case "amount-out-of-range":
    case "unsupported-currency":
      // Refusals that are data already (out of stock with the short lines, the open-order limit,
      // a promo refused, mixed kinds, an amount no invoice may ask): nothing was reserved.
      return reply.code(409).send(refusalJson(result));
  }
}

/** A refusal as JSON: the cart it carries (with its user's id, a bigint) as the API shows carts. */
function refusalJson(result: Exclude<CheckoutResult, { status: "ok" | "invalid" }>) {
  if (!("cart" in result)) return result;
  const { cart, ...refusal } = result;
  return { ...refusal, cart: cartJson(cart) };
}
