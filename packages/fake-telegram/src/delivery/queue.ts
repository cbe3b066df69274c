// The bot's update queue: every update a simulated user causes, in update_id order, until the bot
// has it (a 2xx from the webhook, or a getUpdates offset past it) or delivery gives up.
import { DEFAULT_EXCLUDED_UPDATE_TYPES, type TgUpdate, type UpdateType } from "../types.ts";

export type DeliveryStatus = "pending" | "delivered" | "dropped" | "filtered";

export interface DeliveryAttempt {
  /** 1 for the first try. */
  n: number;
  via: "webhook" | "getUpdates";
  startedAt: number;
  finishedAt?: number;
  /** The webhook's HTTP status, when it answered. */
  httpStatus?: number;
  /** Why the attempt failed: "timeout", "connection error", "response dropped (fault)"... */
  error?: string;
  outcome?: "ok" | "failed";
  /** This attempt was an injected duplicate of an update already delivered. */
  duplicate?: boolean;
}

export interface DeliveryOutcome {
  updateId: number;
  status: Exclude<DeliveryStatus, "pending">;
  attempts: DeliveryAttempt[];
  reason?: string;
}

export interface QueuedUpdate {
  update: TgUpdate;
  type: UpdateType;
  /** Updates with the same key (the chat) are delivered one at a time, in order. */
  queueKey: number;
  status: DeliveryStatus;
  attempts: DeliveryAttempt[];
  enqueuedAt: number;
  /** Webhook: not before this time (backoff after a failure). */
  nextAttemptAt: number;
  failures: number;
  inFlight: boolean;
  /** Injected duplicates still to deliver after the real delivery. */
  duplicatesLeft: number;
  /** When the bot first got it (a 2xx, or an offset past it). */
  deliveredAt?: number;
  reason?: string;
  settled: Promise<DeliveryOutcome>;
  resolve: (outcome: DeliveryOutcome) => void;
}

export class UpdateQueue {
  /** Every update ever created, delivered or not (the delivery log). */
  readonly log: QueuedUpdate[] = [];
  /** allowed_updates as last set by setWebhook/getUpdates; undefined means Telegram's default. */
  allowedUpdates: string[] | undefined;
  private nextUpdateId: number;
  private readonly listeners = new Set<() => void>();
  private pendingItems: QueuedUpdate[] = [];
  private pendingDirty = false;

  constructor(firstUpdateId: number) {
    this.nextUpdateId = firstUpdateId;
  }

  /** Updates the bot has not got yet, oldest first. */
  get pending(): QueuedUpdate[] {
    if (this.pendingDirty) {
      this.pendingItems = this.pendingItems.filter((u) => u.status === "pending");
      this.pendingDirty = false;
    }
    return [...this.pendingItems];
  }

  isAllowed(type: UpdateType): boolean {
    if (this.allowedUpdates === undefined || this.allowedUpdates.length === 0) {
      return !DEFAULT_EXCLUDED_UPDATE_TYPES.includes(type);
    }
    return this.allowedUpdates.includes(type);
  }

  /**
   * Adds an update. One whose type the bot did not allow, or that the bot may not see (privacy
   * mode), is logged as "filtered" and never delivered, as Telegram never creates it.
   */
  enqueue(
    body: Omit<TgUpdate, "update_id">,
    queueKey: number,
    hiddenReason?: string,
  ): QueuedUpdate {
    const type = Object.keys(body)[0] as UpdateType;
    const reason =
      hiddenReason ?? (this.isAllowed(type) ? undefined : `"${type}" is not in allowed_updates`);
    const update = { update_id: reason ? 0 : this.nextUpdateId++, ...body } as TgUpdate;
    let resolve!: (outcome: DeliveryOutcome) => void;
    const settled = new Promise<DeliveryOutcome>((r) => (resolve = r));
    const queued: QueuedUpdate = {
      update,
      type,
      queueKey,
      status: "pending",
      attempts: [],
      enqueuedAt: Date.now(),
      nextAttemptAt: 0,
      failures: 0,
      inFlight: false,
      duplicatesLeft: 0,
      settled,
      resolve,
    };
    this.log.push(queued);
    this.pendingItems.push(queued);
    if (reason) this.settle(queued, "filtered", reason);
    else for (const listener of [...this.listeners]) listener();
    return queued;
  }

  settle(queued: QueuedUpdate, status: Exclude<DeliveryStatus, "pending">, reason?: string): void {
    if (queued.status !== "pending") return;
    queued.status = status;
    this.pendingDirty = true;
    if (reason) queued.reason = reason;
    queued.resolve({
      updateId: queued.update.update_id,
      status,
      attempts: queued.attempts,
      ...(reason ? { reason } : {}),
    });
  }

  /** drop_pending_updates: everything not yet delivered is gone. */
  dropPending(): void {
    for (const queued of this.pending) this.settle(queued, "dropped", "drop_pending_updates");
  }

  onEnqueue(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  find(updateId: number): QueuedUpdate | undefined {
    return this.log.find((u) => u.update.update_id === updateId && u.status !== "filtered");
  }
}
