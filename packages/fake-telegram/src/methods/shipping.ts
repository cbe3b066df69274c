// answerShippingQuery, with Telegram's rules: ok=true needs shipping_options (each an id, a title
// and non-empty prices; ids unique within the answer), ok=false needs an error_message; a query
// answered already, or after the user's wait ended, is too old.
import type { ShippingOption } from "@grammyjs/types";
import { badRequest } from "../errors.ts";
import type { MethodHandler } from "./context.ts";
import { parsePrices } from "./payments.ts";

function readShippingOptions(raw: unknown): ShippingOption[] {
  if (!Array.isArray(raw) || raw.length === 0) throw badRequest("SHIPPING_OPTIONS_EMPTY");
  const options = raw.map((option: unknown): ShippingOption => {
    if (typeof option !== "object" || option === null)
      throw badRequest("can't parse shipping option: ShippingOption must be an Object");
    const { id, title, prices } = option as Record<string, unknown>;
    if (typeof id !== "string" || id === "")
      throw badRequest(`can't parse shipping option: Field "id" must be of type String`);
    if (typeof title !== "string" || title === "")
      throw badRequest(`can't parse shipping option: Field "title" must be of type String`);
    return { id, title, prices: parsePrices(prices) };
  });
  if (new Set(options.map((o) => o.id)).size !== options.length)
    throw badRequest("SHIPPING_ID_DUPLICATE");
  return options;
}

export const answerShippingQuery: MethodHandler = (ctx, args) => {
  const ok = args.bool("ok");
  const options = ok
    ? (args.required("shipping_options"),
      readShippingOptions(args.json("shipping_options", "can't parse shipping options JSON")))
    : undefined;
  const errorMessage = ok ? undefined : args.required("error_message");
  const query = ctx.state.shippingQueries.get(args.str("shipping_query_id"));
  const late =
    query !== undefined && Date.now() - query.createdAt > ctx.settings.preCheckoutTimeoutMs;
  if (!query || query.answer || query.expired || late)
    throw badRequest("query is too old and response timeout expired or query ID is invalid");
  query.answer = {
    ok,
    ...(options ? { options } : {}),
    ...(errorMessage !== undefined ? { errorMessage } : {}),
    at: Date.now(),
  };
  ctx.state.notify();
  return true;
};
