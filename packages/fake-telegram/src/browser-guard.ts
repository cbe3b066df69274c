// What a browser may ask of the fake. Its control API and its Bot API act without a password (the
// token is published), so another site open in the same browser must not reach them:
// - a Host the fake is not served on is refused, so DNS rebinding reads nothing;
// - a request another site makes (Sec-Fetch-Site, or else Origin) is refused, except opening the
//   web client's page;
// - the control API takes JSON bodies only, which no cross-site form or simple request can send.
// Bots, curl and scripts send neither Sec-Fetch-Site nor Origin, and are served as before.
import { hostname as machineName } from "node:os";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { isHostAllowed } from "host-validation-middleware";

/** Names the fake answers to besides IP addresses and localhost: the one it was bound to. */
export function allowedHostsFor(bound: string): readonly string[] {
  if (bound === "0.0.0.0" || bound === "::") return Object.freeze([machineName()]);
  return Object.freeze([bound]);
}

export function addBrowserGuard(app: FastifyInstance, allowedHosts: readonly string[]): void {
  app.addHook("onRequest", async (request, reply) => {
    const refusal = refusalOf(request, allowedHosts);
    if (refusal) return refuse(reply, refusal);
  });
}

type Refusal = { status: 403 | 415; error: string };

function refusalOf(request: FastifyRequest, allowedHosts: readonly string[]): Refusal | null {
  const { headers } = request;
  if (!isHostAllowed(headers.host, allowedHosts))
    return { status: 403, error: "this host name is not one the fake is served on" };
  if (isCrossSite(request) && !opensThePage(request))
    return { status: 403, error: "requests from another site are refused" };
  if (isControlWrite(request) && !isJson(headers["content-type"]))
    return { status: 415, error: "the control API takes JSON bodies only" };
  return null;
}

function isCrossSite(request: FastifyRequest): boolean {
  const site = request.headers["sec-fetch-site"];
  if (site !== undefined) return site !== "same-origin" && site !== "none";
  const origin = request.headers.origin;
  if (origin === undefined) return false;
  try {
    return new URL(origin).host !== request.headers.host;
  } catch {
    return true; // "null": a sandboxed frame or a file
  }
}

/** A link from elsewhere may open the web client; it reads and changes nothing. */
function opensThePage(request: FastifyRequest): boolean {
  return request.method === "GET" && request.url === "/";
}

/** A control request with a body: only POST, of these, is one a page may send unasked. */
function isControlWrite(request: FastifyRequest): boolean {
  return BODY_METHODS.has(request.method) && request.url.startsWith("/_kit");
}

const BODY_METHODS = new Set(["POST", "PUT", "PATCH"]);

function isJson(contentType: string | undefined): boolean {
  return contentType?.split(";")[0]?.trim().toLowerCase() === "application/json";
}

function refuse(reply: FastifyReply, refusal: Refusal): FastifyReply {
  return reply.code(refusal.status).send({ error: refusal.error, name: "RequestRefused" });
}
