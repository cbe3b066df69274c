import type { OutboxRelay } from "../outbox/relay.ts";
import type { Job } from "./job.ts";

/**
 * outbox-relay: one leader at a time sends what is due, paced per chat, per group and globally.
 * The leader keeps its lease between runs, so the pacing state stays in one process; a new leader
 * first learns the recent sends from the table. The claims (SKIP LOCKED plus a visibility timeout)
 * keep two relays from sending the same message should two ever run at once.
 */
export function outboxRelayJob(deps: { relay: OutboxRelay; intervalMs: number }): Job {
  return {
    name: "outbox-relay",
    intervalMs: deps.intervalMs,
    jitter: 0.1,
    keepLeadership: true,
    async run({ signal, leaseSignal, firstRun }) {
      const learned = firstRun ? await deps.relay.warmUp() : 0;
      const s = await deps.relay.drain({ signal, leaseSignal });
      return {
        learned,
        sent: s.sent,
        retried: s.retried,
        deferred: s.deferred,
        dead: s.dead,
        claimLost: s.claimLost,
      };
    },
  };
}
