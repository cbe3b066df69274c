import { collectDefaultMetrics, Registry } from "prom-client";

export { Registry } from "prom-client";

/** One registry per process (or per test), injected wherever metrics are created. */
export function createMetricsRegistry(
  options: { defaultMetrics?: boolean; prefix?: string } = {},
): Registry {
  const registry = new Registry();
  if (options.defaultMetrics)
    collectDefaultMetrics({ register: registry, prefix: options.prefix ?? "" });
  return registry;
}
