import { Transform } from "node:stream";
import { BotError, GrammyError, HttpError } from "grammy";

/**
 * An error as it may be logged. grammY's errors carry too much for a log line: a BotError holds
 * the whole context (the update, with whatever the user sent, and the API client), a GrammyError
 * the call's payload (a provider token for sendInvoice), and an HttpError the fetch failure, whose
 * message includes the request URL with the bot token in it. Only what explains the failure stays.
 */
export function loggableError(error: unknown): unknown {
  const cause = error instanceof BotError ? error.error : error;
  if (cause instanceof GrammyError) {
    return {
      type: "GrammyError",
      method: cause.method,
      code: cause.error_code,
      description: cause.description,
    };
  }
  if (cause instanceof HttpError) return { type: "HttpError", message: cause.message };
  return cause;
}

/**
 * A last line of defence between the logger and stdout: replaces every occurrence of the given
 * secrets (the bot token, the webhook secret) with "[redacted]", whatever code logged them.
 * Redaction by path (see @orderbot/platform's logger) stays the first line.
 */
export function scrubSecrets(out: NodeJS.WritableStream, secrets: readonly string[]): Transform {
  const needles = secrets.filter((s) => s.length >= 8);
  const scrubber = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      let line = chunk.toString("utf8");
      for (const needle of needles) line = line.split(needle).join("[redacted]");
      done(null, line);
    },
  });
  scrubber.pipe(out);
  return scrubber;
}
