// getUpdates semantics: offset confirms, limit, long-poll timeout, negative offsets, one poller at
// a time, allowed_updates, and a duplicate fault.
import { describe, expect, it } from "vitest";
import type { FakeTelegram, SimulatedUser, TgUpdate } from "../src/index.ts";
import { rawCall } from "./support/raw.ts";
import { useTelegramWithAnn } from "./support/ann.ts";

let tg: FakeTelegram;
let ann: SimulatedUser;
useTelegramWithAnn({ started: false }, (opened) => ({ tg, ann } = opened));

async function getUpdates(params: Record<string, unknown> = {}): Promise<TgUpdate[]> {
  const response = await rawCall(tg, "getUpdates", params);
  expect(response.body.ok).toBe(true);
  return response.body.result as TgUpdate[];
}

describe("getUpdates", () => {
  it("returns pending updates until an offset confirms them, at most `limit` at a time", async () => {
    const sent = [];
    for (const text of ["1", "2", "3"]) sent.push(await ann.send(text));
    const ids = sent.map((s) => s.updateId);
    expect((await getUpdates()).map((u) => u.update_id)).toEqual(ids);
    expect((await getUpdates({ limit: 2 })).map((u) => u.update_id)).toEqual(ids.slice(0, 2));
    expect((await getUpdates({ offset: ids[1] })).map((u) => u.update_id)).toEqual(ids.slice(1));
    expect((await sent[0]!.handled()).status).toBe("delivered");
    expect(tg.pendingUpdates).toHaveLength(2);
    expect(await getUpdates({ offset: ids[2]! + 1 })).toEqual([]);
    expect((await sent[2]!.handled()).status).toBe("delivered");
  });

  it("long-polls: a waiting call returns as soon as an update arrives", async () => {
    const poll = getUpdates({ timeout: 30 });
    await new Promise((resolve) => setTimeout(resolve, 30));
    const sent = await ann.send("wake up");
    expect((await poll).map((u) => u.update_id)).toEqual([sent.updateId]);
  });

  it("returns an empty list when the long-poll timeout passes", async () => {
    expect(await getUpdates({ timeout: 1 })).toEqual([]);
  });

  it("keeps only the last updates for a negative offset", async () => {
    for (const text of ["1", "2", "3"]) await ann.send(text);
    const updates = await getUpdates({ offset: -1 });
    expect(updates.map((u) => u.message?.text)).toEqual(["3"]);
    expect(tg.deliveries.filter((d) => d.status === "dropped")).toHaveLength(2);
  });

  it("ends a waiting getUpdates with 409 when another one starts", async () => {
    const first = rawCall(tg, "getUpdates", { timeout: 30 });
    await new Promise((resolve) => setTimeout(resolve, 30));
    const second = rawCall(tg, "getUpdates", { timeout: 0 });
    const [a, b] = await Promise.all([first, second]);
    expect(a.status).toBe(409);
    expect(a.body.description).toBe(
      "Conflict: terminated by other getUpdates request; make sure that only one bot instance is running",
    );
    expect(b.body.ok).toBe(true);
  });

  it("honours allowed_updates: other types are never created", async () => {
    await getUpdates({ allowed_updates: ["callback_query"] });
    const sent = await ann.send("ignored");
    expect(sent.updateId).toBe(0);
    expect((await sent.handled()).status).toBe("filtered");
    expect(await getUpdates()).toEqual([]);
    await getUpdates({ allowed_updates: [] });
    expect((await ann.send("seen")).updateId).toBeGreaterThan(0);
  });

  it("can hand a confirmed update out once more (duplicate fault)", async () => {
    tg.faults.delivery({ duplicateNext: 1 });
    const sent = await ann.send("twice");
    await getUpdates();
    const again = await getUpdates({ offset: sent.updateId + 1 });
    expect(again.map((u) => u.update_id)).toEqual([sent.updateId]);
    expect(await getUpdates({ offset: sent.updateId + 1 })).toEqual([]);
  });

  it("drops pending updates on deleteWebhook with drop_pending_updates", async () => {
    await ann.send("old");
    expect(
      (await rawCall(tg, "deleteWebhook", { drop_pending_updates: true })).body.description,
    ).toBe("Webhook is already deleted");
    expect(await getUpdates()).toEqual([]);
  });
});
