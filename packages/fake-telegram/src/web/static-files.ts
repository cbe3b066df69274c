// The web client's files (packages/fake-telegram/web-client), served as they are: the page at the
// fake's root URL and its script and style under /web-client/. No build step, no CDN.
import { readFile } from "node:fs/promises";
import type { FastifyInstance, FastifyReply } from "fastify";

const CLIENT_DIR = new URL("../../web-client/", import.meta.url);

const TYPES: Record<string, string> = {
  html: "text/html; charset=utf-8",
  js: "text/javascript; charset=utf-8",
  css: "text/css; charset=utf-8",
};

/** Only plain names of the client's own files: no path can leave its folder. */
const FILE_NAME = /^[a-z][a-z0-9-]*\.(html|js|css)$/;

export function staticFilesRoute(app: FastifyInstance): void {
  app.get("/", async (_request, reply) => sendFile(reply, "index.html"));
  app.get<{ Params: { name: string } }>("/web-client/:name", async (request, reply) =>
    sendFile(reply, request.params.name),
  );
}

async function sendFile(reply: FastifyReply, name: string): Promise<FastifyReply> {
  const match = FILE_NAME.exec(name);
  if (!match) return reply.code(404).send({ error: "no such file" });
  try {
    const content = await readFile(new URL(name, CLIENT_DIR));
    return reply
      .code(200)
      .type(TYPES[match[1]!]!)
      .header("cache-control", "no-cache")
      .send(content);
  } catch {
    return reply.code(404).send({ error: "no such file" });
  }
}
