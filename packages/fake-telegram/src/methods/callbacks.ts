// answerCallbackQuery: once per query, before the client stops waiting.
import { badRequest } from "../errors.ts";
import type { MethodHandler } from "./context.ts";

export const MAX_CALLBACK_ANSWER_LENGTH = 200;

export const answerCallbackQuery: MethodHandler = (ctx, args) => {
  const text = args.str("text");
  if ([...text].length > MAX_CALLBACK_ANSWER_LENGTH) throw badRequest("MESSAGE_TOO_LONG");
  const query = ctx.state.callbackQueries.get(args.str("callback_query_id"));
  const expired =
    query !== undefined && Date.now() - query.createdAt > ctx.settings.callbackQueryTimeoutMs;
  if (!query || query.answer || expired) {
    throw badRequest("query is too old and response timeout expired or query ID is invalid");
  }
  const url = args.str("url");
  query.answer = {
    ...(text ? { text } : {}),
    showAlert: args.bool("show_alert"),
    ...(url ? { url } : {}),
    at: Date.now(),
  };
  ctx.state.notify();
  return true;
};
