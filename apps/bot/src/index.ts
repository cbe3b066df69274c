// @orderbot/bot as a library: the demo, the end-to-end and chaos suites and the benchmarks build
// the same app that `main.ts` runs.
export { createBotApp, type BotApp, type BotAppDeps } from "./app.ts";
export { botConfigSchema, parseBotConfig, loadBotConfig, type BotConfig } from "./config.ts";
export { createBot, type CreateBotDeps } from "./bot/create-bot.ts";
export type { BotContext } from "./bot/context.ts";
export { callbacks } from "@orderbot/conversation";
export { createServer, WEBHOOK_PATH, type BotServer, type ServerDeps } from "./server.ts";
export {
  createUpdatePipeline,
  type ProcessUpdate,
  type UpdateOutcome,
} from "./updates/pipeline.ts";
export { HANDLED_UPDATE_TYPES } from "./updates/schema.ts";
