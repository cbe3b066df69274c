// The operator's record of a /stock command's replies, also when the reply comes after the wait
// for it gave up, as one the outbox relay sends once the group's budget has room.
import { afterEach, beforeEach, expect, it } from "vitest";
import { type FakeTelegram, startFakeTelegram } from "@orderbot/fake-telegram";
import { Operator } from "../../src/harness/operator.ts";

type Update = { update_id: number; message?: { message_id: number; chat: { id: number } } };

/** A bot that handles each /stock at once and replies after `lateMs`, as the relay would. */
async function serve(kit: FakeTelegram, lateMs: number, signal: AbortSignal): Promise<void> {
  let offset = 0;
  while (!signal.aborted) {
    const { result } = (await kit.call("getUpdates", { offset, timeout: 0 })) as {
      result: Update[];
    };
    for (const { update_id, message } of result) {
      offset = update_id + 1;
      if (!message) continue;
      setTimeout(() => {
        void kit.call("sendMessage", {
          chat_id: message.chat.id,
          text: "TEA: stock 4 → 7.",
          reply_parameters: { message_id: message.message_id },
        });
      }, lateMs);
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

let kit: FakeTelegram;
let stop: AbortController;
let serving: Promise<void>;

beforeEach(async () => {
  kit = await startFakeTelegram();
  stop = new AbortController();
  serving = serve(kit, 400, stop.signal);
});
afterEach(async () => {
  stop.abort();
  await serving;
  await kit.close();
});

it("reads a reply that came after the wait for it, once asked again", async () => {
  const ann = kit.createUser({ firstName: "Ann" });
  const group = kit.createGroup({ title: "Shop", admins: [ann] });
  const operator = new Operator(kit, ann, group, 100);
  const command = await operator.stock("TEA", "+3");
  expect(command).toMatchObject({ delivered: true, replies: [] });
  await expect.poll(() => kit.chat(group).botMessages.length).toBe(1);
  expect(operator.rereadReplies()).toEqual([
    expect.objectContaining({ replies: ["TEA: stock 4 → 7."], before: 4, after: 7, delta: 3 }),
  ]);
});
