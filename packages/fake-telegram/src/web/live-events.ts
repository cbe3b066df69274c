// Server-sent events for the web client: "change" with the state's sequence number whenever a chat,
// a query or a payment changes, at most one every 50 ms, so the page refreshes without polling.
import type { FastifyInstance } from "fastify";
import type { TelegramState } from "../state.ts";

const COALESCE_MS = 50;
const HEARTBEAT_MS = 15_000;

export function liveEventsRoute(state: TelegramState): (app: FastifyInstance) => void {
  return (app) => {
    app.get("/_kit/events", (request, reply) => {
      reply.hijack();
      reply.raw.writeHead(200, {
        "content-type": "text/event-stream",
        "cache-control": "no-cache",
        connection: "keep-alive",
      });
      let pending: NodeJS.Timeout | undefined;
      const send = (): void => {
        pending = undefined;
        reply.raw.write(`event: change\ndata: ${state.currentSeq}\n\n`);
      };
      send();
      const unsubscribe = state.subscribe(() => {
        pending ??= setTimeout(send, COALESCE_MS).unref();
      });
      // Proxies and browsers drop a silent stream; a comment line keeps it open.
      const heartbeat = setInterval(() => reply.raw.write(": ping\n\n"), HEARTBEAT_MS).unref();
      request.raw.on("close", () => {
        unsubscribe();
        clearTimeout(pending);
        clearInterval(heartbeat);
      });
    });
  };
}
