// Who is calling: the raw initData Telegram gave the Mini App, sent as `Authorization: tma
// <initData>` and checked as received (never a re-serialisation of it): the HMAC against the
// bot's token (Telegram's "Validating data received via the Mini App", by
// @telegram-apps/init-data-node), then auth_date against the shop's clock. The user id comes
// from initData alone. Neither the header nor the token is ever logged.
import { parse, signData } from "@telegram-apps/init-data-node";
import { secretMatches } from "@orderbot/platform";

/** Why a request is refused; every reason is a 401 and changes nothing. */
export type InitDataRefusal = "missing" | "malformed" | "tampered" | "expired";

export interface InitDataUser {
  id: number;
  languageCode: string | undefined;
}

export type InitDataCheck =
  | { status: "ok"; user: InitDataUser; startParam: string | null }
  | {
      status: "refused";
      reason: InitDataRefusal;
    };

const SCHEME = "tma ";

/**
 * Checks an Authorization header. Signature first, then age: a forged initData is `tampered`
 * whatever date it claims. `maxAgeSeconds` bounds how long ago Telegram signed it.
 */
export function checkInitData(
  header: string | undefined,
  options: { botToken: string; maxAgeSeconds: number; now: Date },
): InitDataCheck {
  if (header === undefined || header === "") return refused("missing");
  if (!header.startsWith(SCHEME)) return refused("malformed");
  const raw = header.slice(SCHEME.length);
  // A missing hash is as untrustworthy as a wrong one.
  if (!signatureMatches(raw, options.botToken)) return refused("tampered");
  const data = parsed(raw);
  if (!data?.user) return refused("malformed");
  const ageMs = options.now.getTime() - data.auth_date.getTime();
  if (ageMs > options.maxAgeSeconds * 1000) return refused("expired");
  return {
    status: "ok",
    user: { id: data.user.id, languageCode: data.user.language_code },
    startParam: data.start_param ?? null,
  };
}

/**
 * Telegram's check, as @telegram-apps/init-data-node's validate makes it (every field but `hash`,
 * as `key=value` lines sorted and joined by "\n", signed with HMAC-SHA256 under a key derived from
 * the token), but compared in constant time: validate compares with !==.
 */
function signatureMatches(raw: string, botToken: string): boolean {
  const fields = new URLSearchParams(raw);
  const hash = fields.get("hash");
  if (!hash) return false;
  const lines = [...fields.entries()]
    .filter(([key]) => key !== "hash")
    .map(([key, value]) => `${key}=${value}`)
    .sort();
  return secretMatches(hash, signData(lines.join("\n"), botToken));
}

/** The signed fields, or null when a signed string still does not parse (a user that is not JSON). */
function parsed(raw: string) {
  try {
    return parse(raw);
  } catch {
    return null;
  }
}

const refused = (reason: InitDataRefusal): InitDataCheck => ({ status: "refused", reason });
