// Every storefront request is authenticated on its own (no session, so any bot replica serves
// any request): initData checked, the customer recorded through core's one call (on a miss of the
// language cache the chat shares), then the customer's rate limit, counted with their chat
// updates. A refusal changes nothing: the check runs before any write, and a rate-limited request
// has at most been recorded, doing no work.
import { randomUUID } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { LanguagePreferences } from "@orderbot/conversation";
import type { Logger } from "@orderbot/platform";
import { localeFromLanguageCode, type Locale } from "../format/translate.ts";
import type { RequestLimiter } from "../updates/rate-limit.ts";
import { checkInitData } from "./init-data.ts";

/** The customer a request was made by, as initData and the shop's records say. */
export interface Shopper {
  userId: number;
  locale: Locale;
  /** `start_param` of a direct link (`t.me/<bot>?startapp=...`); null otherwise. */
  startParam: string | null;
}

export interface ShopperDeps {
  botToken: string;
  maxAgeSeconds: number;
  /**
   * The customer's language, cached as the chat's is; a miss records them through core's
   * `customers.record` (first contact, or last seen moved on).
   */
  languages: Pick<LanguagePreferences, "remember">;
  limiter: RequestLimiter;
  /** Retry-After on a 429: the rate limit's window. */
  retryAfterSeconds: number;
  now: () => Date;
  logger: Logger;
}

const shoppers = new WeakMap<FastifyRequest, Shopper>();

/** The shopper the onRequest hook found; only routes behind it call this. */
export function shopperOf(request: FastifyRequest): Shopper {
  const shopper = shoppers.get(request);
  if (!shopper) throw new Error("storefront route reached without an authenticated shopper");
  return shopper;
}

/** The onRequest hook: 401 with a reason, 429 over the rate limit, else the shopper is known. */
export function authenticate(deps: ShopperDeps) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const check = checkInitData(request.headers.authorization, {
      botToken: deps.botToken,
      maxAgeSeconds: deps.maxAgeSeconds,
      now: deps.now(),
    });
    if (check.status === "refused") {
      // The reason only: never the header (it is the caller's credential) nor the token.
      deps.logger.info({ reason: check.reason }, "storefront request refused");
      return reply.code(401).send({ status: "unauthorized", reason: check.reason });
    }
    const { user } = check;
    const locale = await deps.languages.remember(
      user.id,
      localeFromLanguageCode(user.languageCode),
    );
    if (!(await deps.limiter.admitsRequest(user.id, randomUUID())))
      return reply
        .code(429)
        .header("retry-after", String(deps.retryAfterSeconds))
        .send({ status: "rate-limited" });
    shoppers.set(request, { userId: user.id, locale, startParam: check.startParam });
  };
}
