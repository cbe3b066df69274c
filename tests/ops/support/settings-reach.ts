// Whether each setting of an env example reaches the process that reads it: the checks of
// compose.test.ts, kept apart so that a fixture can show each of them failing.
import type { RenderedService } from "./compose-render.ts";

export interface Setting {
  name: string;
  value: string;
}

/** Every `NAME=value` line of an env example, commented out (`# NAME=value`) or not. */
export function exampleSettings(text: string): Setting[] {
  const settings: Setting[] = [];
  for (const line of text.split("\n")) {
    const match = /^(?:#\s*)?([A-Z][A-Z0-9_]*)=(.*)$/.exec(line.trim());
    if (match) settings.push({ name: match[1]!, value: match[2]!.replace(/\s+#\s.*$/, "") });
  }
  return settings;
}

/** The env file an operator who set every listed setting would write. */
export const envFile = (settings: readonly Setting[]) =>
  settings.map((s) => `${s.name}=${s.value}\n`).join("");

/** A config schema's settings as configSchemaDoc gives them. */
export interface SchemaSettings {
  properties: Record<string, { description?: string }>;
}

/**
 * One line per problem: a setting that no process's schema reads, a retired one, or one that
 * does not reach, with its value, every service whose schema reads it (left out of the service's
 * env file, or overridden by its `environment`).
 */
export function settingProblems(
  settings: readonly Setting[],
  services: Record<string, RenderedService>,
  schemas: Record<string, SchemaSettings>,
): string[] {
  const problems: string[] = [];
  for (const { name, value } of settings) {
    const readers = Object.keys(schemas).filter((s) => name in schemas[s]!.properties);
    if (readers.length === 0) problems.push(`${name}: no service's schema reads it`);
    for (const service of readers) {
      const description = schemas[service]!.properties[name]!.description ?? "";
      if (description.startsWith("Retired")) problems.push(`${name}: retired (${description})`);
      const got = services[service]?.environment?.[name];
      if (got === undefined) problems.push(`${name}: does not reach ${service}`);
      else if (String(got ?? "") !== value)
        problems.push(`${name}: reaches ${service} as something else than the file says`);
    }
  }
  return problems;
}

/** A value for a compose variable that can be found again in the rendered configuration. */
export const probeValue = (name: string) =>
  `${name.endsWith("_DIR") ? "/" : ""}probe-${name.toLowerCase().replace(/_/g, "-")}`;

/**
 * One line per compose variable (set to its probeValue) that appears in no rendered
 * configuration: nothing reads it. `own`: compose's own variables, never interpolated.
 */
export function unusedVariables(
  settings: readonly Setting[],
  renderedTexts: readonly string[],
  own: ReadonlySet<string> = new Set(["COMPOSE_PROJECT_NAME"]),
): string[] {
  return settings
    .filter((s) => !own.has(s.name))
    .filter((s) => !renderedTexts.some((text) => text.includes(probeValue(s.name))))
    .map((s) => `${s.name}: no service of any compose file uses it`);
}
