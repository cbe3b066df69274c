// A flood of updates from a few users during the sale: each sends messages as fast as a script
// can (50 a second) for a few seconds, from its private chat and from groups the bot is in.
// Telegram delivers one chat's updates one at a time, so a flooder who wants to go faster than
// the bot answers uses several chats: the per-user limit at the front of the pipeline must turn
// the excess away before any database work, while the sale's buyers go on; the invariants checked
// afterwards cover every buyer's order and payment.
import { setTimeout as sleep } from "node:timers/promises";
import { scrapeAll } from "@orderbot/testkit";
import type { Fault, FaultContext } from "../fault.ts";

/** Updates the bots turned away as rate-limited, by their own metrics. */
async function limitedUpdates(ctx: FaultContext): Promise<number> {
  const samples = await scrapeAll(ctx.env.shop.bots.map((b) => b.metricsUrl));
  return samples
    .filter((s) => s.name === "orderbot_updates_total" && s.labels.outcome === "limited")
    .reduce((total, s) => total + s.value, 0);
}

export function floodFault(
  at: number,
  options = { users: 3, groupsEach: 4, perSecond: 50, seconds: 4 },
): Fault {
  return {
    label: "flood from a few users",
    happened: (c) => c.floodUpdates > 0 && c.floodLimited > 0,
    async run(ctx) {
      await ctx.at(at);
      const before = await limitedUpdates(ctx);
      const kit = ctx.env.shop.kit;
      const flooders = Array.from({ length: options.users }, (_, i) => {
        const user = kit.createUser({ firstName: `Flooder${i + 1}`, languageCode: "en" });
        const groups = Array.from({ length: options.groupsEach }, (_, g) =>
          kit.createGroup({ title: `Flood ${i + 1}.${g + 1}`, creator: user, bot: "member" }),
        );
        return { user, chats: [undefined, ...groups] };
      });
      const sent: Promise<unknown>[] = [];
      const ids: number[] = [];
      const total = options.perSecond * options.seconds;
      for (let n = 0; n < total; n++) {
        for (const { user, chats } of flooders) {
          const chat = chats[n % chats.length];
          sent.push(
            user.send("/help", chat ? { in: chat } : {}).then((action) => {
              ids.push(action.updateId);
              return action.handled();
            }),
          );
        }
        await sleep(1000 / options.perSecond);
      }
      await Promise.all(sent);
      // Those over the limit were acknowledged and never recorded: that is the point.
      ctx.allowUnrecorded(ids);
      ctx.counts.floodUpdates += sent.length;
      ctx.counts.floodLimited += (await limitedUpdates(ctx)) - before;
      ctx.note(
        `${options.users} users sent ${sent.length} updates at ${options.perSecond}/s each; the bots turned ${ctx.counts.floodLimited} away as rate-limited`,
      );
    },
  };
}
