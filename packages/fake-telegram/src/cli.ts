// Standalone fake Telegram: `npm run telegram:fake -- --port 8081 [--token T] [--host H]`.
// Prints the apiRoot to give the bot (TELEGRAM_API_ROOT) and serves until Ctrl-C.
import { parseArgs } from "node:util";
import { DEFAULT_TOKEN, startFakeTelegram } from "./fake-telegram.ts";

const USAGE = `usage: npm run telegram:fake -- [--port N] [--token TOKEN] [--host HOST] [--username NAME]
  --port      port to listen on (default 8081; 0 picks a free one)
  --token     the bot token the fake accepts (default ${DEFAULT_TOKEN})
  --host      address to bind (default 127.0.0.1); a name is also the Host browsers may use
  --username  the bot's @username without @ (default orderbot_test_bot)`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: "string", default: "8081" },
      token: { type: "string", default: DEFAULT_TOKEN },
      host: { type: "string", default: "127.0.0.1" },
      username: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`--port must be 0-65535, not ${values.port}`);
  const tg = await startFakeTelegram({
    port,
    host: values.host,
    token: values.token,
    controlApi: true,
    ...(values.username ? { botUsername: values.username } : {}),
  });
  console.log(`fake Telegram Bot API listening
  apiRoot:  ${tg.apiRoot}        (grammY: new Bot(token, { client: { apiRoot } }); TELEGRAM_API_ROOT)
  token:    ${tg.token}
  bot:      @${tg.botInfo.username} (id ${tg.botInfo.id})
  control:  ${tg.apiRoot}/_kit   (POST /_kit/users, /_kit/users/:id/send|press|pay, GET /_kit/chats/:id, /_kit/calls)
  client:   ${tg.apiRoot}/       (the web client: chat with the bot as simulated users)
Ctrl-C stops it.`);
  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: stopping`);
    tg.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));
}

main().catch((error: unknown) => {
  console.error(`telegram:fake: ${error instanceof Error ? error.message : String(error)}`);
  console.error(USAGE);
  process.exit(1);
});
