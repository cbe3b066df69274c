import { pino, type Logger, type LoggerOptions } from "pino";

export type { Logger } from "pino";

/**
 * Paths pino replaces with "[redacted]" wherever they appear in a log line: the bot token, the
 * webhook secret header, payment payloads and phone numbers. Add to it rather than trusting
 * every call site to leave secrets out.
 */
export const REDACT_PATHS = [
  "token",
  "botToken",
  "*.token",
  "*.botToken",
  "secret",
  "*.secret",
  "webhookSecret",
  "*.webhookSecret",
  "password",
  "*.password",
  "req.headers.authorization",
  'req.headers["x-telegram-bot-api-secret-token"]',
  "headers.authorization",
  'headers["x-telegram-bot-api-secret-token"]',
  "phone_number",
  "*.phone_number",
  "*.*.phone_number",
  "contact",
  "*.contact",
  "invoice_payload",
  "*.invoice_payload",
  "*.*.invoice_payload",
  "provider_payment_charge_id",
  "*.provider_payment_charge_id",
  "*.*.provider_payment_charge_id",
  "order_info",
  "*.order_info",
  "*.*.order_info",
];

export interface LoggerConfig {
  level: string;
  /** Human-readable output for development; JSON lines otherwise. */
  pretty?: boolean;
  name?: string;
  /** Where lines go; defaults to stdout. Tests pass a stream to scan what was logged. */
  destination?: NodeJS.WritableStream;
}

export function createLogger(config: LoggerConfig): Logger {
  const options: LoggerOptions = {
    level: config.level,
    redact: { paths: REDACT_PATHS, censor: "[redacted]" },
    base: config.name ? { service: config.name } : null,
  };
  if (config.destination) return pino(options, config.destination as pino.DestinationStream);
  if (config.pretty) {
    return pino({ ...options, transport: { target: "pino-pretty", options: { colorize: true } } });
  }
  return pino(options);
}

/** A logger that drops everything: the default where a logger is optional. */
export const silentLogger: Logger = pino({ level: "silent" });
