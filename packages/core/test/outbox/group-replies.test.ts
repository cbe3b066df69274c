// A bot's direct reply to a group is booked before Telegram is called. A bot that dies after the
// booking must not lose the reply: the relay claims it once the booking's claim has passed.
import { describe, expect, it } from "vitest";
import {
  claimDueOutbox,
  confirmGroupReply,
  recentGroupReplies,
  reserveGroupReply,
} from "../../src/outbox/index.ts";
import { unique } from "../support/fixtures.ts";
import { useShopHarness } from "../support/shop.ts";

const h = useShopHarness();

let nextGroup = -1_009_100_000_000n;
const book = (chatId: bigint, dedupeKey: string, claimMs: number) =>
  reserveGroupReply(h.db, {
    dedupeKey,
    chatId,
    payload: { text: "CHAOS-TEA: stock 5 → 8." },
    perWindow: 2,
    windowMs: 60_000,
    claimMs,
  });
const claimFor = async (chatId: bigint) =>
  (await claimDueOutbox(h.db, { limit: 100, claimMs: 60_000 })).filter((m) => m.chatId === chatId);

describe("group replies", () => {
  it("leaves a reply whose bot died mid-send to the relay once its claim passes", async () => {
    const chatId = nextGroup--;
    const key = `reply:${chatId}:${unique("u")}`;
    expect(await book(chatId, key, 60_000)).toBe("send");
    // The bot dies here: no confirmation, no failure recorded.
    expect(await claimFor(chatId)).toEqual([]);
    // A minute later (the clock moved rather than waited for): the claim has passed.
    await h.db.$executeRaw`
      UPDATE outbox_messages SET next_attempt_at = next_attempt_at - interval '61 seconds'
       WHERE dedupe_key = ${key}`;
    expect((await claimFor(chatId)).map((m) => m.dedupeKey)).toEqual([key]);
    expect(await book(chatId, key, 60_000)).toBe("duplicate");
  });

  it("counts a send in flight in the group's budget, and a confirmed one stays sent", async () => {
    const chatId = nextGroup--;
    const reply = () => `reply:${chatId}:${unique("u")}`;
    const [first, second, third] = [reply(), reply(), reply()];
    expect(await book(chatId, first, 30_000)).toBe("send");
    expect(await book(chatId, second, 30_000)).toBe("send");
    await confirmGroupReply(h.db, first);
    expect(await book(chatId, third, 30_000)).toBe("queued");
    const counted = (await recentGroupReplies(h.db, 60_000)).filter((r) => r.chatId === chatId);
    expect(counted).toHaveLength(2);
    const rows = await h.db.outboxMessage.findMany({
      where: { chatId },
      orderBy: { id: "asc" },
      select: { dedupeKey: true, status: true },
    });
    expect(rows.map((r) => r.status)).toEqual(["SENT", "PENDING", "PENDING"]);
    // Only the queued reply is the relay's now; the one in flight is hidden until its claim passes.
    expect((await claimFor(chatId)).map((m) => m.dedupeKey)).toEqual([third]);
  });
});
