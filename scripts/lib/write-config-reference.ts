// npm run docs:config: writes docs/configuration.md from the config schemas.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { renderConfigReference } from "./config-reference.ts";
import { configSources } from "./config-sources.ts";

const file = path.resolve(import.meta.dirname, "../../docs/configuration.md");
writeFileSync(file, renderConfigReference(configSources()));
console.log(`wrote ${path.relative(process.cwd(), file)}`);
