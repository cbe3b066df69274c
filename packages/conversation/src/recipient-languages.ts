// The language each chat is spoken to in, read when a notice is sent (never stored with it): a
// customer's stored one (a private chat's id is its user's id), or an operator group's /settings
// language (English when unset). A chat the shop knows nothing of gets the fallback.
import type { Database } from "@orderbot/db";
import { isLocale, type Locale } from "./languages.ts";

export async function recipientLanguages(
  db: Pick<Database, "$queryRaw">,
  chatIds: readonly bigint[],
  fallback: Locale,
): Promise<(chatId: bigint) => Locale> {
  const ids = [...new Set(chatIds)].map(String);
  const rows =
    ids.length === 0
      ? []
      : await db.$queryRaw<{ chat_id: bigint; language: string | null }[]>`
          SELECT user_id AS chat_id, language FROM customers WHERE user_id = ANY(${ids}::bigint[])
          UNION ALL
          SELECT chat_id, coalesce(settings->>'language', 'en') FROM operator_groups
           WHERE chat_id = ANY(${ids}::bigint[])`;
  const languages = new Map(
    rows.filter((r) => isLocale(r.language)).map((r) => [r.chat_id, r.language as Locale]),
  );
  return (chatId) => languages.get(chatId) ?? fallback;
}
