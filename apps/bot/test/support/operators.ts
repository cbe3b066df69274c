// The set-ups the bot's feature tests share: the whole bot (the harness) for the file, and the
// people of an operator group: the owner, its admins, a member, bound as the shop's operators.
import { afterAll, beforeAll } from "vitest";
import type {
  CreateUserOptions,
  FakeTelegram,
  SimulatedGroup,
  SimulatedUser,
} from "@orderbot/fake-telegram";
import { OWNER_ID, startBotHarness, type BotHarness, type HarnessOptions } from "./harness.ts";

/**
 * Registers the hooks that start the bot before the file's tests and close it after them;
 * `opened` gets the harness and its fake Telegram.
 *
 * @example
 * let h: BotHarness, kit: FakeTelegram;
 * useBotHarness({}, (opened) => ({ h, kit } = opened));
 */
export function useBotHarness(
  options: HarnessOptions,
  opened: (set: { h: BotHarness; kit: FakeTelegram }) => unknown,
): void {
  let h: BotHarness | undefined;
  beforeAll(async () => {
    h = await startBotHarness(options);
    await opened({ h, kit: h.kit });
  });
  afterAll(() => h?.close());
}

export interface OperatorGroupOptions {
  title?: string;
  /** Who the group's admins are (one "Admin" unless told). */
  admins?: CreateUserOptions[];
  /** Whether the group has a member who is not an admin (default true). */
  member?: boolean;
  /** How the group becomes the shop's: the owner's /bind, core's bind, or not at all. */
  bind?: "command" | "core" | "none";
  harness?: HarnessOptions;
}

export interface OperatorGroup {
  h: BotHarness;
  kit: FakeTelegram;
  owner: SimulatedUser;
  admin: SimulatedUser;
  admins: SimulatedUser[];
  member: SimulatedUser;
  group: SimulatedGroup;
}

/** The bot for the file (as useBotHarness) and an operator group of the shop's owner. */
export function useOperatorGroup(
  options: OperatorGroupOptions,
  opened: (set: OperatorGroup) => unknown,
): void {
  useBotHarness(options.harness ?? {}, async ({ h, kit }) => {
    const title = options.title ?? "Ops";
    const owner = kit.createUser({ id: OWNER_ID, firstName: "Owner", languageCode: "en" });
    const admins = (options.admins ?? [{ firstName: "Admin" }]).map((user) =>
      kit.createUser({ languageCode: "en", ...user }),
    );
    const members =
      options.member === false ? [] : [kit.createUser({ firstName: "Member", languageCode: "en" })];
    const group = kit.createGroup({ title, creator: owner, admins, members });
    if (options.bind === "command") {
      await owner.send("/bind", { in: group });
      await group.waitForMessage(/operator group/);
    } else if (options.bind === "core") {
      await h.shop.groups.bind({ chatId: group.id, title, boundBy: OWNER_ID });
    }
    opened({ h, kit, owner, admin: admins[0]!, admins, member: members[0]!, group });
  });
}
