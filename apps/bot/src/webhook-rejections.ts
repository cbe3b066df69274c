// Counting and reporting webhook requests refused for their secret. Telegram always sends the
// secret, so a refusal is a misconfiguration after a rotation or someone probing the URL: both are
// worth one log line, but a flood of them must not flood the log, hence one warning per interval
// with the number held back since. The header's value is never logged: a near-miss would help a
// guesser, and a stale secret is still a secret.
import type { FastifyRequest } from "fastify";
import type { Registry } from "prom-client";
import type { Logger } from "@orderbot/platform";
import { webhookRejectedCounter, type WebhookRejection } from "./metrics.ts";

export interface RejectionReporterDeps {
  registry: Registry;
  logger: Logger;
  /** At most one warning per this many milliseconds. */
  intervalMs: number;
  now?: () => number;
}

export function createRejectionReporter(deps: RejectionReporterDeps) {
  const counter = webhookRejectedCounter(deps.registry);
  const now = deps.now ?? Date.now;
  let lastWarning = -Infinity;
  let heldBack = 0;
  return (request: FastifyRequest, reason: WebhookRejection) => {
    counter.inc({ reason });
    const at = now();
    if (at - lastWarning < deps.intervalMs) {
      heldBack += 1;
      return;
    }
    deps.logger.warn(
      {
        reason,
        peer: request.ip,
        // Set by the proxy in front (Caddy replaces a client's own value with the real peer).
        forwardedFor: request.headers["x-forwarded-for"],
        heldBack,
      },
      "webhook request refused: secret header missing or wrong",
    );
    lastWarning = at;
    heldBack = 0;
  };
}
