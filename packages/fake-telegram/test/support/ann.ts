// The set-up of most tests here: a fresh fake Telegram for each test, and Ann, a user who has
// started the bot (unless told otherwise), so the bot may write to her.
import { afterEach, beforeEach } from "vitest";
import {
  startFakeTelegram,
  type CreateUserOptions,
  type FakeTelegram,
  type FakeTelegramOptions,
  type SimulatedUser,
} from "../../src/index.ts";

/**
 * Registers the hooks; `opened` gets each test's Telegram and Ann before the test runs.
 *
 * @example
 * let tg: FakeTelegram;
 * let ann: SimulatedUser;
 * useTelegramWithAnn({}, (opened) => ({ tg, ann } = opened));
 */
export function useTelegramWithAnn(
  options: { telegram?: FakeTelegramOptions; ann?: CreateUserOptions; started?: boolean },
  opened: (set: { tg: FakeTelegram; ann: SimulatedUser }) => unknown,
): void {
  useFakeTelegram(options.telegram, async (tg) => {
    const ann = tg.createUser({ firstName: "Ann", ...options.ann });
    if (options.started !== false) await ann.send("/start");
    opened({ tg, ann });
  });
}

/** Registers the hooks; `opened` gets each test's fresh Telegram before the test runs. */
export function useFakeTelegram(
  options: FakeTelegramOptions | undefined,
  opened: (tg: FakeTelegram) => unknown,
): void {
  let tg: FakeTelegram | undefined;
  beforeEach(async () => {
    tg = await startFakeTelegram(options);
    await opened(tg);
  });
  afterEach(async () => {
    await tg?.close();
  });
}
