import { maskSecretValues, maskSecretsInText } from "./logger.ts";

/**
 * Text written outside the logger (a process that failed to start): bot tokens and URL passwords
 * masked by pattern, then the given secrets by value, as the logger masks every line it writes.
 */
export function scrubText(text: string, secrets: readonly string[]): string {
  return maskSecretValues(maskSecretsInText(text), secrets);
}
