// The config schemas that docs/configuration.md documents, as JSON Schema.
import { botConfigSchema } from "@orderbot/bot";
import { configSchemaDoc, redisTopologyShape, sharedConfigShape } from "@orderbot/platform";
import { workerConfigSchema } from "@orderbot/worker";
import type { ConfigSources } from "./config-reference.ts";

export function configSources(): ConfigSources {
  return {
    shared: configSchemaDoc({ ...sharedConfigShape, ...redisTopologyShape }),
    bot: configSchemaDoc(botConfigSchema),
    worker: configSchemaDoc(workerConfigSchema),
  };
}
