// setWebhook, deleteWebhook, getWebhookInfo and getUpdates. Like a local Bot API server, the fake
// accepts http:// URLs on any port; Telegram's cloud requires HTTPS on 443, 80, 88 or 8443.
import type { WebhookInfo } from "@grammyjs/types";
import type { Args } from "../args.ts";
import { LONG_POLL_MAX_TIMEOUT_S } from "../delivery/polling.ts";
import { badRequest, conflict, tooManyRequests } from "../errors.ts";
import { Described, type KitContext, type MethodHandler } from "./context.ts";

const SECRET_TOKEN = /^[A-Za-z0-9_-]{1,256}$/;

function readAllowedUpdates(args: Args): string[] | undefined {
  const value = args.json("allowed_updates", "can't parse allowed_updates JSON object");
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : undefined;
}

function dropIfAsked(ctx: KitContext, args: Args): boolean {
  const drop = args.bool("drop_pending_updates");
  if (drop) ctx.queue.dropPending();
  return drop;
}

function deleteWebhookNow(ctx: KitContext, args: Args): Described {
  dropIfAsked(ctx, args);
  if (!ctx.webhook.config) return new Described(true, "Webhook is already deleted");
  ctx.webhook.clear();
  return new Described(true, "Webhook was deleted");
}

export const setWebhook: MethodHandler = (ctx, args) => {
  const url = args.str("url");
  if (url === "") return deleteWebhookNow(ctx, args);
  const now = Date.now();
  if (ctx.settings.setWebhookRateLimit && now < ctx.lastSetWebhookAt + 1_000)
    throw tooManyRequests(1);
  ctx.lastSetWebhookAt = now;
  const secretToken = args.str("secret_token");
  if (secretToken !== "" && !SECRET_TOKEN.test(secretToken)) {
    throw badRequest("secret token contains unallowed characters");
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw badRequest("invalid webhook URL specified");
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:")
    throw badRequest("invalid webhook URL specified");
  const maxConnections = args.int("max_connections", 40, 1, 100);
  const allowedUpdates = readAllowedUpdates(args);
  const dropped = dropIfAsked(ctx, args);
  const previous = ctx.webhook.config;
  if (allowedUpdates !== undefined) ctx.queue.allowedUpdates = allowedUpdates;
  const config = { url, maxConnections, ...(secretToken ? { secretToken } : {}) };
  const unchanged =
    previous?.url === url &&
    previous.maxConnections === maxConnections &&
    previous.secretToken === config.secretToken &&
    !dropped;
  ctx.poller.abort();
  ctx.webhook.set(config);
  return new Described(true, unchanged ? "Webhook is already set" : "Webhook was set");
};

export const deleteWebhook: MethodHandler = (ctx, args) => deleteWebhookNow(ctx, args);

export const getWebhookInfo: MethodHandler = (ctx): WebhookInfo => {
  const { config, lastError } = ctx.webhook;
  const allowed = ctx.queue.allowedUpdates;
  return {
    url: config?.url ?? "",
    has_custom_certificate: false,
    pending_update_count: ctx.queue.pending.length,
    ...(config ? { max_connections: config.maxConnections, ip_address: "127.0.0.1" } : {}),
    ...(lastError
      ? { last_error_date: lastError.date, last_error_message: lastError.message }
      : {}),
    ...(allowed && allowed.length
      ? { allowed_updates: allowed as WebhookInfo["allowed_updates"] }
      : {}),
  };
};

export const getUpdates: MethodHandler = (ctx, args, call) => {
  if (ctx.webhook.config) {
    throw conflict(
      "can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first",
    );
  }
  const allowedUpdates = readAllowedUpdates(args);
  return ctx.poller.getUpdates({
    offset: args.int("offset", 0),
    limit: args.int("limit", 100, 1, 100),
    timeoutS: args.int("timeout", 0, 0, LONG_POLL_MAX_TIMEOUT_S),
    ...(allowedUpdates !== undefined ? { allowedUpdates } : {}),
    signal: call.signal,
  });
};
