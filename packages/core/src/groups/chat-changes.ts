// What Telegram changes about a bound group: an upgrade to a supergroup, the bot removed.
import { z } from "zod";
import type { CoreDeps } from "../deps.ts";
import { invalid, NOT_FOUND } from "../results.ts";
import { parseWith, telegramId } from "../validation.ts";
import { deadLetterGroupOutbox, migrateGroup } from "./migration.ts";
import { findGroup } from "./queries.ts";
import type { Arg, Result } from "./service.ts";

const migrateSchema = z
  .object({ fromChatId: telegramId, toChatId: telegramId })
  .refine((m) => m.fromChatId !== m.toChatId, "the new chat id must differ from the old one");
export async function migrate(deps: CoreDeps, raw: Arg<"migrate">): Result<"migrate"> {
  const parsed = parseWith(migrateSchema, raw);
  if (!parsed.ok) return invalid(parsed.problems);
  const result = await migrateGroup(deps.db, parsed.value);
  if (result.moved || result.messages > 0)
    deps.logger.info(
      {
        from: deps.mask(parsed.value.fromChatId),
        to: deps.mask(parsed.value.toChatId),
        ...result,
      },
      "operator group followed to its supergroup",
    );
  return { status: "ok", ...result };
}

export async function botRemoved(
  deps: CoreDeps,
  chatIdRaw: Arg<"botRemoved">,
): Result<"botRemoved"> {
  const chatId = telegramId.safeParse(chatIdRaw);
  if (!chatId.success) return invalid([{ field: "chatId", rule: "format", bound: "telegram-id" }]);
  const group = await findGroup(deps.db, chatId.data);
  if (!group) return NOT_FOUND;
  const deadLettered = await deadLetterGroupOutbox(deps.db, {
    chatId: chatId.data,
    reason: "the bot was removed from the operator group",
  });
  deps.logger.warn(
    { group: deps.mask(chatId.data), deadLettered },
    "bot removed from an operator group; its pending messages are dead letters",
  );
  return { status: "ok", group, deadLettered };
}
