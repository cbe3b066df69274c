import { pino, type Logger, type LoggerOptions } from "pino";

export type { Logger } from "pino";

/**
 * Keys whose values never reach a log line, wherever they sit in a logged object (the whole
 * update, a request, an error's payload): secrets, payment payloads and personal data that
 * Telegram sends with updates. Add to this list rather than trusting every call site.
 */
export const REDACTED_KEYS: readonly string[] = [
  // Secrets, as fields and as the config's variable names.
  "token",
  "botToken",
  "BOT_TOKEN",
  "secret",
  "webhookSecret",
  "WEBHOOK_SECRET",
  "secret_token",
  "metricsToken",
  "METRICS_TOKEN",
  "provider_token",
  "providerToken",
  "PROVIDER_TOKEN",
  "password",
  "hashKey",
  "LOCK_HASH_KEY",
  "DATABASE_URL",
  "databaseUrl",
  "REDIS_URL",
  "redisUrl",
  // HTTP headers (Node lower-cases them): the webhook secret, bearer tokens, cookies.
  "x-telegram-bot-api-secret-token",
  "authorization",
  "cookie",
  // Payment payloads (Bot API field names): what was bought and the provider's references.
  "invoice_payload",
  "provider_payment_charge_id",
  "order_info",
  "shipping_address",
  "credentials",
  // Personal data: who a user is (names, @username) and what they wrote (a message's or a
  // caption's `text`). The numeric ids stay: an operator needs them to follow one user's updates.
  "phone_number",
  "contact",
  "first_name",
  "last_name",
  "username",
  "text",
];

const CENSOR = "[redacted]";
const REDACTED = new Set(REDACTED_KEYS);
/** pino prints five levels of nesting (its depthLimit); walking one more covers all it prints. */
const MAX_DEPTH = 6;

/**
 * A copy of a logged value with every REDACTED_KEYS value replaced, in one pass. Errors are
 * serialized first (type, message, stack and their own fields, such as grammY's call payload);
 * values with toJSON (dates, decimals) and buffers are left to the serializer.
 */
function scrub(value: unknown, depth: number, seen: WeakSet<object>, parentKey = ""): unknown {
  if (value === null || typeof value !== "object" || depth > MAX_DEPTH) return value;
  if (seen.has(value)) return "[Circular]";
  seen.add(value);
  if (value instanceof Error) return scrub(pino.stdSerializers.err(value), depth, seen, parentKey);
  if (Array.isArray(value)) return value.map((item) => scrub(item, depth + 1, seen, parentKey));
  if (typeof (value as { toJSON?: unknown }).toJSON === "function" || ArrayBuffer.isView(value))
    return value;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    copy[key] = isSensitive(key, parentKey) ? CENSOR : scrub(item, depth + 1, seen, key);
  }
  return copy;
}

/**
 * A key in REDACTED_KEYS, or `payload` inside a Bot API call's parameters (grammY's GrammyError
 * keeps them as `payload`): sendInvoice's `payload` is the invoice payload.
 */
function isSensitive(key: string, parentKey: string): boolean {
  return REDACTED.has(key) || (key === "payload" && parentKey === "payload");
}

const scrubObject = (object: Record<string, unknown>) =>
  scrub(object, 0, new WeakSet()) as Record<string, unknown>;

/** A bot token (`123456789:AA...`) anywhere in a string, e.g. in a Bot API URL inside an error message. */
const BOT_TOKEN_PATTERN = /(?<!\d)\d{5,}:[A-Za-z0-9_-]{30,}/g;
/** The password in a URL's user info: postgresql://user:PASSWORD@host, redis://:PASSWORD@host. */
const URL_PASSWORD_PATTERN = /(\/\/[^/\s:@"]*:)[^@\s/"]+@/g;

/** Replaces bot tokens and URL passwords inside free text: messages, error messages, stacks, any string field. */
export function maskSecretsInText(text: string): string {
  return text
    .replace(BOT_TOKEN_PATTERN, "[redacted-token]")
    .replace(URL_PASSWORD_PATTERN, "$1[redacted]@");
}

/** Values shorter than this are not masked by value: they would match ordinary text. */
const MIN_SECRET_LENGTH = 8;

/** Replaces each of the given secret values (the bot token, the webhook secret ...) wherever it appears. */
export function maskSecretValues(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets)
    if (secret.length >= MIN_SECRET_LENGTH) out = out.split(secret).join("[redacted]");
  return out;
}

export interface LoggerConfig {
  level: string;
  /**
   * The process's secret values, masked on every line written, whatever code logged them: a last
   * line of defence behind the masking by key and by pattern.
   */
  secrets?: readonly string[];
  /** Human-readable output for development (NODE_ENV=development); JSON lines otherwise. */
  pretty?: boolean;
  name?: string;
  /** Where lines go; defaults to stdout. Tests pass a stream to scan what was logged. */
  destination?: NodeJS.WritableStream;
  /** Fields added to every line at the time it is logged (pino's mixin), e.g. the request being handled. */
  mixin?: LoggerOptions["mixin"];
}

/**
 * The process logger. Secrets are kept out twice: by key (REDACTED_KEYS, at any depth of the
 * logged object and of child bindings) and by pattern on every line written (bot tokens, URL
 * passwords). Children carry context: `logger.child({ updateId })` puts the update id on every
 * line handling an update.
 *
 * @example
 * const logger = createLogger({ level: "info", name: "bot", pretty: config.NODE_ENV === "development" });
 * logger.child({ updateId: update.update_id }).info({ update }, "update received"); // payloads redacted
 */
export function createLogger(config: LoggerConfig): Logger {
  const options: LoggerOptions = {
    level: config.level,
    base: config.name ? { service: config.name } : null,
    formatters: { log: scrubObject },
    // Errors were serialized (and scrubbed) by the log formatter already.
    serializers: { err: (value: unknown) => value },
    hooks: {
      streamWrite: (line: string) =>
        maskSecretValues(maskSecretsInText(line), config.secrets ?? []),
    },
    ...(config.mixin ? { mixin: config.mixin } : {}),
  };
  let logger: Logger;
  if (config.destination) logger = pino(options, config.destination as pino.DestinationStream);
  // Development only: pino-pretty turns the (already scrubbed) lines into readable text.
  else if (config.pretty)
    logger = pino({
      ...options,
      transport: { target: "pino-pretty", options: { colorize: true } },
    });
  else logger = pino(options);
  return scrubbingChildren(logger);
}

/**
 * pino applies `formatters.bindings` to the root's bindings only; children's bindings (and their
 * children's: pino children inherit from their parent) are scrubbed here instead.
 */
function scrubbingChildren(logger: Logger): Logger {
  const child = logger.child;
  logger.child = function (this: Logger, bindings, childOptions) {
    return child.call(this, scrubObject(bindings), childOptions);
  } as typeof logger.child;
  return logger;
}

/** A logger that drops everything: the default where a logger is optional. */
export const silentLogger: Logger = pino({ level: "silent" });
