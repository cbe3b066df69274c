// The initData check alone: Telegram's HMAC over the raw string, then its age by the given clock.
import { sign } from "@telegram-apps/init-data-node";
import { describe, expect, it } from "vitest";
import { checkInitData } from "../../src/storefront/init-data.ts";

const TOKEN = "8000000001:TEST-storefront-token-0123456789";
const NOW = new Date("2026-12-07T12:00:00Z");
const DAY = 86_400;

function signed(options: { token?: string; ageSeconds?: number; user?: object } = {}) {
  const user = options.user ?? { id: 42, first_name: "Ann", language_code: "zh" };
  const authDate = new Date(NOW.getTime() - (options.ageSeconds ?? 0) * 1000);
  const data = { user, start_param: "p-FAN-SILK" } as unknown as Parameters<typeof sign>[0];
  return sign(data, options.token ?? TOKEN, authDate);
}

const check = (header: string | undefined) =>
  checkInitData(header, { botToken: TOKEN, maxAgeSeconds: DAY, now: NOW });

describe("checkInitData", () => {
  it("takes the user and start_param from a fresh initData signed with the bot's token", () => {
    expect(check(`tma ${signed()}`)).toEqual({
      status: "ok",
      user: { id: 42, languageCode: "zh" },
      startParam: "p-FAN-SILK",
    });
  });

  it("refuses a changed field, another bot's signature and a missing hash as tampered", () => {
    const changed = signed().replace("%22id%22%3A42", "%22id%22%3A43");
    const foreign = signed({ token: "8000000002:TEST-another-bot-token-0123456" });
    const unsigned = signed().replace(/&hash=[0-9a-f]+/, "");
    for (const raw of [changed, foreign, unsigned])
      expect(check(`tma ${raw}`)).toEqual({ status: "refused", reason: "tampered" });
  });

  it("refuses one signed longer ago than the maximum age, by the given clock", () => {
    expect(check(`tma ${signed({ ageSeconds: DAY })}`).status).toBe("ok");
    expect(check(`tma ${signed({ ageSeconds: DAY + 1 })}`)).toEqual({
      status: "refused",
      reason: "expired",
    });
  });

  it("checks the signature before the age: a forged old initData is tampered", () => {
    const forged = signed({ ageSeconds: 10 * DAY }).replace("%22id%22%3A42", "%22id%22%3A43");
    expect(check(`tma ${forged}`)).toEqual({ status: "refused", reason: "tampered" });
  });

  it("refuses a missing header, another scheme, and a signed initData without a user", () => {
    expect(check(undefined)).toEqual({ status: "refused", reason: "missing" });
    expect(check("")).toEqual({ status: "refused", reason: "missing" });
    expect(check(`Bearer ${signed()}`)).toEqual({ status: "refused", reason: "malformed" });
    const noUser = sign({} as Parameters<typeof sign>[0], TOKEN, NOW);
    expect(check(`tma ${noUser}`)).toEqual({ status: "refused", reason: "malformed" });
  });
});
