import type { OutboxRelay } from "../outbox/relay.ts";
import type { Job } from "./job.ts";

/**
 * outbox-relay: one leader at a time sends what is due, paced per chat, per group and globally.
 * One leader keeps the pacing in one place; the claims (SKIP LOCKED plus a visibility timeout)
 * keep two relays from sending the same message should two ever run at once.
 */
export function outboxRelayJob(deps: { relay: OutboxRelay; intervalMs: number }): Job {
  return {
    name: "outbox-relay",
    intervalMs: deps.intervalMs,
    jitter: 0.1,
    async run({ signal, leaseSignal }) {
      const s = await deps.relay.drain({ signal, leaseSignal });
      return { sent: s.sent, retried: s.retried, deferred: s.deferred, dead: s.dead, claimLost: s.claimLost };
    },
  };
}
