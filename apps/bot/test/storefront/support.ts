// Calls to the storefront's API as a Mini App makes them: initData signed with the bot's token as
// Telegram signs it (@telegram-apps/init-data-node's sign, Telegram's documented algorithm).
import { sign } from "@telegram-apps/init-data-node";
import type { SimulatedUser } from "@orderbot/fake-telegram";
import type { BotHarness } from "../support/harness.ts";

export interface ApiAnswer {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON, asserted by each test
  body: any;
  headers: Headers;
}

/** initData for `user`, signed `ageSeconds` ago with `token`. */
export function initDataFor(user: Pick<SimulatedUser, "id">, token: string, ageSeconds = 0) {
  const authDate = new Date(Date.now() - ageSeconds * 1000);
  const tgUser = { id: user.id, first_name: "Shopper", language_code: "en" };
  return sign({ user: tgUser } as unknown as Parameters<typeof sign>[0], token, authDate);
}

/** A request to `/app/api<path>` with `Authorization: tma <initData>` (none when null). */
export async function callApi(
  h: BotHarness,
  initData: string | null,
  path: string,
  init: { method?: string; json?: unknown } = {},
): Promise<ApiAnswer> {
  const headers: Record<string, string> = {};
  if (initData !== null) headers.authorization = `tma ${initData}`;
  if (init.json !== undefined) headers["content-type"] = "application/json";
  const response = await fetch(new URL(`/app/api${path}`, h.config.PUBLIC_URL), {
    method: init.method ?? "GET",
    headers,
    ...(init.json !== undefined ? { body: JSON.stringify(init.json) } : {}),
  });
  const text = await response.text();
  return {
    status: response.status,
    body: text ? JSON.parse(text) : null,
    headers: response.headers,
  };
}

/** A shopper of the Mini App: their own signed initData, and calls made with it. */
export function shopper(h: BotHarness, user: SimulatedUser) {
  const initData = initDataFor(user, h.kit.token);
  return (path: string, init?: { method?: string; json?: unknown }) =>
    callApi(h, initData, path, init);
}
