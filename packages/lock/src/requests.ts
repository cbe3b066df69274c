// Turning a caller's { kind, id } and options into a checked request: the kind's configuration,
// the keys, the TTL and the wait. Every problem is a LockInputError, before any Redis command.
import { checkTtl, MAX_WAIT_MS, positiveInt, type ResolvedConfig } from "./config.ts";
import { LockInputError } from "./errors.ts";
import { hashId, idText, lockKeys, type LockKeys } from "./keys.ts";
import type { KindMetrics } from "./metrics.ts";
import type { AcquireOptions, LockKindConfig, LockResource } from "./types.ts";

/** One validated acquire request. */
export interface LockRequest {
  kind: string;
  config: LockKindConfig;
  keys: LockKeys;
  metrics: KindMetrics;
  ttlMs: number;
  waitMs: number;
  /** How long the fence counter lives after this acquisition (the scripts use at least the TTL). */
  fenceRetentionMs: number;
  signal: AbortSignal | undefined;
  requestId: string | undefined;
}

function checkResource(resource: LockResource): LockResource {
  if (!resource || typeof resource !== "object")
    throw new LockInputError("resource must be { kind, id }", "resource");
  return resource;
}

export class Requests {
  constructor(
    private readonly config: ResolvedConfig,
    private readonly metrics: ReadonlyMap<string, KindMetrics>,
  ) {}

  request(resource: LockResource, options: AcquireOptions): LockRequest {
    if (!options || typeof options !== "object")
      throw new LockInputError("options must be an object", "options");
    const config = this.kind(checkResource(resource).kind);
    const keys = this.#keysOf(resource, config);
    const { signal, requestId } = options;
    if (signal !== undefined && !(signal instanceof AbortSignal)) {
      throw new LockInputError("signal must be an AbortSignal", "signal");
    }
    if (requestId !== undefined && (typeof requestId !== "string" || requestId.length > 128)) {
      throw new LockInputError("requestId must be a string of at most 128 characters", "requestId");
    }
    return {
      kind: resource.kind,
      config,
      keys,
      metrics: this.metricsOf(resource.kind),
      ttlMs: checkTtl(options.ttlMs ?? config.ttlMs, this.config.ttlBounds),
      waitMs: positiveInt(options.waitMs ?? config.waitMs, "waitMs", {
        zero: true,
        max: MAX_WAIT_MS,
      }),
      fenceRetentionMs: config.fenceRetentionMs ?? this.config.fenceRetentionMs,
      signal,
      requestId,
    };
  }

  /** The fence retention of a configured kind. */
  fenceRetentionOf(kind: string): number {
    return this.config.kinds.get(kind)?.fenceRetentionMs ?? this.config.fenceRetentionMs;
  }

  kind(kind: unknown): LockKindConfig {
    const config = typeof kind === "string" ? this.config.kinds.get(kind) : undefined;
    if (!config) {
      const known = [...this.config.kinds.keys()].join(", ");
      throw new LockInputError(
        `unknown lock kind "${String(kind)}" (configured: ${known})`,
        "kind",
      );
    }
    return config;
  }

  keys(resource: LockResource): LockKeys {
    return this.#keysOf(resource, this.kind(checkResource(resource).kind));
  }

  #keysOf(resource: LockResource, config: LockKindConfig): LockKeys {
    const id = idText(resource.id);
    const segment = config.personal ? hashId(this.config.hashKey, resource.kind, id) : id;
    return lockKeys(this.config.namespace, resource.kind, segment);
  }

  metricsOf(kind: string): KindMetrics {
    return this.metrics.get(kind)!;
  }
}
