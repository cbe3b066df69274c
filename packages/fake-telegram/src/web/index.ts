// The web client of the fake: its files, its live events and the control routes it needs.
import type { FastifyInstance } from "fastify";
import type { FakeTelegram } from "../fake-telegram.ts";
import type { KitContext } from "../methods/context.ts";
import { clientRoutes } from "./client-routes.ts";
import { liveEventsRoute } from "./live-events.ts";
import { staticFilesRoute } from "./static-files.ts";

export function webClientRoutes(
  ctx: KitContext,
  kit: () => FakeTelegram,
): (app: FastifyInstance) => void {
  return (app) => {
    staticFilesRoute(app);
    liveEventsRoute(ctx.state)(app);
    clientRoutes(ctx, kit)(app);
  };
}
