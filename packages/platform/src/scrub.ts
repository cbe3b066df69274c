import { Transform } from "node:stream";
import { maskSecretsInText } from "./logger.ts";

/** Values shorter than this are not scrubbed: they would match ordinary text. */
const MIN_SECRET_LENGTH = 8;

/**
 * A last line of defence between the logger and stdout: replaces every occurrence of the given
 * secrets (the bot token, the webhook secret, the hash key) with "[redacted]", whatever code
 * logged them. Redaction by key and by pattern (createLogger) stays the first line.
 */
export function scrubSecrets(out: NodeJS.WritableStream, secrets: readonly string[]): Transform {
  const needles = secrets.filter((s) => s.length >= MIN_SECRET_LENGTH);
  const scrubber = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      done(null, replaceAll(chunk.toString("utf8"), needles));
    },
  });
  scrubber.pipe(out);
  return scrubber;
}

/**
 * Text written outside the logger (a process that failed to start): bot tokens and URL passwords
 * masked by pattern, then the given secrets by value.
 */
export function scrubText(text: string, secrets: readonly string[]): string {
  return replaceAll(
    maskSecretsInText(text),
    secrets.filter((s) => s.length >= MIN_SECRET_LENGTH),
  );
}

function replaceAll(text: string, needles: readonly string[]): string {
  let out = text;
  for (const needle of needles) out = out.split(needle).join("[redacted]");
  return out;
}
