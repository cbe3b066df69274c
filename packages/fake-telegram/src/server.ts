// The HTTP face of the fake: /bot<token>/<method>, by GET or POST, with JSON, urlencoded or
// multipart bodies (query-string arguments count too), answered in Telegram's envelope.
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from "fastify";
import { addBrowserGuard } from "./browser-guard.ts";
import type { Dispatched } from "./dispatch.ts";
import { BotApiError, badRequest, notFound, unauthorized } from "./errors.ts";
import { parseMultipart } from "./multipart.ts";

export interface ServerDeps {
  token: string;
  /** Host names served besides IP addresses and localhost (browser-guard.ts). */
  allowedHosts: readonly string[];
  dispatch: (
    method: string,
    fields: Record<string, unknown>,
    signal: AbortSignal,
  ) => Promise<Dispatched>;
  /** Extra routes (the control API of the standalone server). */
  routes?: (app: FastifyInstance) => void;
  /** The bytes at a file_path getFile gave out (undefined: none), for /file/bot<token>/<path>. */
  download?: (filePath: string) => Buffer | undefined;
}

const API_PATH = /^\/bot([^/]+)\/([^/]*)$/;
/** Telegram's download URL: https://api.telegram.org/file/bot<token>/<file_path>. */
const FILE_PATH = /^\/file\/bot([^/]+)\/(.+)$/;

export function buildServer(deps: ServerDeps): FastifyInstance {
  const app = Fastify({ logger: false, bodyLimit: 50 * 1024 * 1024, forceCloseConnections: true });
  addBrowserGuard(app, deps.allowedHosts);
  addBodyParsers(app);
  app.setErrorHandler((error: Error, _request, reply) => {
    const apiError = error instanceof BotApiError ? error : badRequest(error.message);
    void reply.code(apiError.errorCode).send(apiError.toJSON());
  });
  deps.routes?.(app);
  app.route({
    method: ["GET", "POST"],
    url: "/*",
    handler: async (request, reply) => {
      const path = request.url.split("?")[0] ?? "";
      const file = request.method === "GET" ? FILE_PATH.exec(path) : null;
      if (file) return serveFile(deps, file, reply);
      return callMethod(deps, path, request, reply);
    },
  });
  return app;
}

/** JSON, urlencoded and multipart bodies as Telegram reads them; any other body counts as empty. */
function addBodyParsers(app: FastifyInstance): void {
  app.removeContentTypeParser(["application/json", "text/plain"]);
  app.addContentTypeParser("application/json", { parseAs: "string" }, (_request, body, done) => {
    const text = String(body).trim();
    if (text === "") return done(null, {});
    try {
      const parsed: unknown = JSON.parse(text);
      done(
        null,
        typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? parsed : {},
      );
    } catch {
      done(badRequest("can't parse JSON object"), undefined);
    }
  });
  app.addContentTypeParser(
    "application/x-www-form-urlencoded",
    { parseAs: "string" },
    (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(String(body))));
    },
  );
  app.addContentTypeParser("multipart/form-data", { parseAs: "buffer" }, (request, body, done) => {
    done(null, parseMultipart(body as Buffer, request.headers["content-type"] ?? ""));
  });
  app.addContentTypeParser("*", { parseAs: "buffer" }, (_request, _body, done) => done(null, {}));
}

/** GET /file/bot<token>/<file_path>: the bytes, or 404 for a wrong token or an unknown path. */
function serveFile(deps: ServerDeps, file: RegExpExecArray, reply: FastifyReply): FastifyReply {
  const content =
    decodeURIComponent(file[1]!) === deps.token
      ? deps.download?.(decodeURIComponent(file[2]!))
      : undefined;
  if (!content) return reply.code(404).send(notFound().toJSON());
  return reply.code(200).type("application/octet-stream").send(content);
}

/** /bot<token>/<method>: query-string and body arguments, aborted if the client goes away. */
async function callMethod(
  deps: ServerDeps,
  path: string,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const match = API_PATH.exec(path);
  if (!match || match[2] === "") return reply.code(404).send(notFound().toJSON());
  if (decodeURIComponent(match[1]!) !== deps.token)
    return reply.code(401).send(unauthorized().toJSON());
  const fields = {
    ...(request.query as Record<string, unknown>),
    ...((request.body ?? {}) as Record<string, unknown>),
  };
  const controller = new AbortController();
  reply.raw.on("close", () => {
    if (!reply.raw.writableFinished) controller.abort();
  });
  const { status, body, lost } = await deps.dispatch(match[2]!, fields, controller.signal);
  if (lost) {
    // The method ran; its answer never arrives (Faults' loseAnswer).
    reply.hijack();
    request.raw.socket.destroy();
    return reply;
  }
  return reply.code(status).send(body);
}
