// Webhook delivery as Telegram does it: a POST per update with the secret header, one update per
// chat in flight (the chat's later updates wait, even while its head backs off), at most
// max_connections requests at once, and re-delivery with exponential backoff after a non-2xx,
// a timeout or a connection error, until the attempt cap drops the update.
import type { Faults } from "../faults.ts";
import type { DeliveryAttempt, QueuedUpdate, UpdateQueue } from "./queue.ts";

export interface WebhookOptions {
  /** How long an attempt waits for the bot's response (Telegram waits about 60 s). */
  timeoutMs?: number;
  /** Delay before the first re-delivery; it doubles with each failure. Default 1000. */
  retryBaseMs?: number;
  /** The longest delay between attempts. Default 60 000. */
  retryMaxMs?: number;
  /** Attempts per update before it is dropped. Default 10 (Telegram drops after about a day). */
  maxAttempts?: number;
}

export interface WebhookConfig {
  url: string;
  secretToken?: string;
  maxConnections: number;
  ipAddress?: string;
}

export type ReplyExecutor = (method: string, params: Record<string, unknown>) => Promise<void>;

const NOT_ALLOWED_IN_REPLY = new Set(["setwebhook", "deletewebhook", "close", "logout"]);

export class WebhookDelivery {
  config: WebhookConfig | undefined;
  lastError: { date: number; message: string } | undefined;
  private inFlight = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly controllers = new Set<AbortController>();
  private closed = false;
  private readonly options: Required<WebhookOptions>;

  constructor(
    private readonly queue: UpdateQueue,
    private readonly faults: Faults,
    options: WebhookOptions,
    private readonly executeReply: ReplyExecutor,
  ) {
    this.options = {
      timeoutMs: options.timeoutMs ?? 60_000,
      retryBaseMs: options.retryBaseMs ?? 1_000,
      retryMaxMs: options.retryMaxMs ?? 60_000,
      maxAttempts: options.maxAttempts ?? 10,
    };
    queue.onEnqueue(() => this.pump());
  }

  set(config: WebhookConfig): void {
    this.config = config;
    this.lastError = undefined;
    this.pump();
  }

  clear(): void {
    this.config = undefined;
    this.lastError = undefined;
  }

  get inFlightCount(): number {
    return this.inFlight;
  }

  /** Sends every update that may go now; schedules itself for the earliest backoff. */
  pump(): void {
    const config = this.config;
    if (!config || this.closed) return;
    const seenKeys = new Set<number>();
    const now = Date.now();
    let earliest = Infinity;
    for (const queued of this.queue.pending) {
      if (seenKeys.has(queued.queueKey)) continue;
      seenKeys.add(queued.queueKey);
      if (queued.inFlight) continue;
      if (queued.nextAttemptAt > now) {
        earliest = Math.min(earliest, queued.nextAttemptAt);
        continue;
      }
      if (this.inFlight >= config.maxConnections) break;
      void this.send(queued, config);
    }
    this.schedule(earliest);
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    for (const controller of this.controllers) controller.abort();
  }

  private schedule(at: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (at === Infinity) return;
    this.timer = setTimeout(() => this.pump(), Math.max(0, at - Date.now()));
    this.timer.unref();
  }

  private async send(queued: QueuedUpdate, config: WebhookConfig): Promise<void> {
    queued.inFlight = true;
    this.inFlight++;
    const attempt: DeliveryAttempt = {
      n: queued.attempts.length + 1,
      via: "webhook",
      startedAt: Date.now(),
      ...(queued.deliveredAt !== undefined ? { duplicate: true } : {}),
    };
    queued.attempts.push(attempt);
    const controller = new AbortController();
    this.controllers.add(controller);
    const timer = setTimeout(() => controller.abort(new Error("timeout")), this.options.timeoutMs);
    let replyBody = "";
    let retryAfterS: number | undefined;
    try {
      if (this.faults.webhookUnreachable()) await refused();
      const headers: Record<string, string> = { "content-type": "application/json" };
      if (config.secretToken) headers["x-telegram-bot-api-secret-token"] = config.secretToken;
      const response = await fetch(config.url, {
        method: "POST",
        headers,
        body: JSON.stringify(queued.update),
        signal: controller.signal,
      });
      replyBody = await response.text();
      attempt.httpStatus = response.status;
      if (response.status < 200 || response.status > 299) {
        attempt.error = `Wrong response from the webhook: ${response.status} ${response.statusText}`;
        const header = Number(response.headers.get("retry-after"));
        if (Number.isFinite(header) && header > 0) retryAfterS = header;
      } else if (this.faults.dropResponse()) {
        attempt.error = "response dropped (fault)";
      }
    } catch (error) {
      attempt.error = describeFetchError(error, controller);
    } finally {
      clearTimeout(timer);
      this.controllers.delete(controller);
      attempt.finishedAt = Date.now();
      queued.inFlight = false;
      this.inFlight--;
    }
    if (this.closed) return;
    if (attempt.error) this.onFailure(queued, attempt, retryAfterS);
    else await this.onSuccess(queued, attempt, replyBody);
    this.pump();
  }

  private async onSuccess(
    queued: QueuedUpdate,
    attempt: DeliveryAttempt,
    replyBody: string,
  ): Promise<void> {
    attempt.outcome = "ok";
    if (queued.deliveredAt === undefined) {
      queued.deliveredAt = attempt.finishedAt ?? Date.now();
      await this.runWebhookReply(replyBody);
      if (this.faults.duplicate()) {
        queued.duplicatesLeft = 1;
        queued.nextAttemptAt = 0;
        return;
      }
    } else if (queued.duplicatesLeft > 0) {
      queued.duplicatesLeft--;
      if (queued.duplicatesLeft > 0) return;
    }
    this.queue.settle(queued, "delivered");
  }

  private onFailure(
    queued: QueuedUpdate,
    attempt: DeliveryAttempt,
    retryAfterS: number | undefined,
  ): void {
    attempt.outcome = "failed";
    this.lastError = {
      date: Math.floor(Date.now() / 1000),
      message: attempt.error ?? "unknown error",
    };
    if (queued.deliveredAt !== undefined && queued.duplicatesLeft > 0) {
      // A failed injected duplicate is not retried: the bot already has the update.
      this.queue.settle(queued, "delivered");
      return;
    }
    queued.failures++;
    if (queued.attempts.length >= this.options.maxAttempts) {
      this.queue.settle(
        queued,
        "dropped",
        `gave up after ${queued.attempts.length} attempts: ${attempt.error}`,
      );
      return;
    }
    const backoff = Math.min(
      this.options.retryMaxMs,
      this.options.retryBaseMs * 2 ** (queued.failures - 1),
    );
    queued.nextAttemptAt = Date.now() + (retryAfterS !== undefined ? retryAfterS * 1000 : backoff);
  }

  /** A method in the webhook response body is executed like a call (grammY's webhook reply). */
  private async runWebhookReply(body: string): Promise<void> {
    if (!body.trim().startsWith("{")) return;
    let parsed: Record<string, unknown>;
    try {
      parsed = JSON.parse(body) as Record<string, unknown>;
    } catch {
      return;
    }
    const { method, ...params } = parsed;
    if (typeof method !== "string" || method === "") return;
    const name = method.toLowerCase();
    if (name.startsWith("get") || NOT_ALLOWED_IN_REPLY.has(name)) return;
    await this.executeReply(method, params);
  }
}

/** The `webhookUnreachable` fault: the request never reaches the bot. */
class WebhookUnreachable extends Error {
  override name = "WebhookUnreachable";
}

/** Refused on a later turn, as a connection is: never inside the pump that started the send. */
async function refused(): Promise<never> {
  await new Promise((resolve) => setImmediate(resolve));
  throw new WebhookUnreachable();
}

function describeFetchError(error: unknown, controller: AbortController): string {
  if (error instanceof WebhookUnreachable) return "Connection refused (fault)";
  if (controller.signal.aborted) return "Read timeout expired";
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  if (cause?.code === "ECONNREFUSED") return "Connection refused";
  if (cause?.code === "ECONNRESET" || cause?.code === "UND_ERR_SOCKET")
    return "Connection reset by peer";
  return `Connection error: ${cause?.message ?? (error instanceof Error ? error.message : String(error))}`;
}
