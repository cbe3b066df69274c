/** What the namespace's first part says of each environment: `prod:…`, `test:…`, `dev:…`. */
const ENVIRONMENT = { production: "prod", test: "test", development: "dev" } as const;

/**
 * The default `LOCK_NAMESPACE`: the environment and the bot, `<env>:bot<id>` from the token's
 * numeric part (the bot's public id, never its secret), so that two bots on one Redis never share
 * a lock key, a release channel or a fence counter without anyone having to choose a name.
 *
 * @example
 * lockNamespaceFor("production", "123456:AAE…"); // "prod:bot123456"
 */
export function lockNamespaceFor(nodeEnv: keyof typeof ENVIRONMENT, botToken: string): string {
  return `${ENVIRONMENT[nodeEnv]}:bot${botToken.split(":")[0]}`;
}

/** A parsed config with LOCK_NAMESPACE filled in (set by hand, or `lockNamespaceFor`); for a schema's `.transform`. */
export function withLockNamespace<
  C extends { NODE_ENV: keyof typeof ENVIRONMENT; BOT_TOKEN: string; LOCK_NAMESPACE?: string },
>(config: C): C & { LOCK_NAMESPACE: string } {
  return {
    ...config,
    LOCK_NAMESPACE: config.LOCK_NAMESPACE ?? lockNamespaceFor(config.NODE_ENV, config.BOT_TOKEN),
  };
}
