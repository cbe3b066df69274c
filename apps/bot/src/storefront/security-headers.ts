// The storefront's security headers (@fastify/helmet): a CSP that runs scripts from the app's own
// origin and Telegram's (telegram-web-app.js), and lets only Telegram's web clients frame the app
// (a Mini App runs in an iframe there). X-Frame-Options is left out: it cannot name a list of
// origins, and frame-ancestors supersedes it.
import helmet from "@fastify/helmet";
import type { FastifyInstance } from "fastify";

/** Telegram's web clients, which embed a Mini App in an iframe. */
export const TELEGRAM_WEB_CLIENTS = [
  "https://web.telegram.org",
  "https://webk.telegram.org",
  "https://webz.telegram.org",
];

export const STOREFRONT_CSP = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'", "https://telegram.org"],
  styleSrc: ["'self'"],
  imgSrc: ["'self'", "data:", "https:"],
  connectSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: TELEGRAM_WEB_CLIENTS,
};

/** Registers the headers on `app` (an encapsulated plugin: the webhook and health routes keep theirs). */
export async function securityHeaders(app: FastifyInstance): Promise<void> {
  await app.register(helmet, {
    contentSecurityPolicy: { useDefaults: false, directives: STOREFRONT_CSP },
    frameguard: false,
    // Telegram's clients load the app cross-origin; it embeds nothing that needs isolation.
    crossOriginEmbedderPolicy: false,
    crossOriginResourcePolicy: { policy: "same-site" },
  });
}
