// docs/configuration.md, rendered from the config schemas (the one source of every setting's
// default, range and meaning). `npm run docs:config` writes it; tests/docs checks it is current.
import type { ConfigSchemaDoc, SettingSchema } from "@orderbot/platform";

export interface ConfigSources {
  /** sharedConfigShape + redisTopologyShape: every process reads these. */
  shared: ConfigSchemaDoc;
  bot: ConfigSchemaDoc;
  worker: ConfigSchemaDoc;
}

const UNBOUNDED = Number.MAX_SAFE_INTEGER;
const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\n/g, " ");
const code = (text: string) => `\`${text}\``;

/** The names of settings that have no description (`.describe()` on the schema). */
export function undescribedSettings(docs: readonly ConfigSchemaDoc[]): string[] {
  const names = docs.flatMap((doc) =>
    Object.entries(doc.properties)
      .filter(([, setting]) => !setting.description?.trim())
      .map(([name]) => name),
  );
  return [...new Set(names)].sort();
}

function defaultText(name: string, setting: SettingSchema, doc: ConfigSchemaDoc): string {
  if (setting.defaultText !== undefined) return setting.defaultText;
  if (setting.default === undefined) return doc.required.includes(name) ? "**required**" : "unset";
  if (setting.default === "" || setting.default === "[]") return "empty";
  return code(String(setting.default));
}

function numberRange(setting: SettingSchema): string {
  const min =
    setting.minimum !== undefined && setting.minimum > -UNBOUNDED ? setting.minimum : null;
  const max = setting.maximum !== undefined && setting.maximum < UNBOUNDED ? setting.maximum : null;
  const integer = setting.type === "integer" ? "integer " : "";
  if (setting.exclusiveMinimum !== undefined)
    return `${integer}> ${setting.exclusiveMinimum}${max === null ? "" : `, ≤ ${max}`}`;
  if (min !== null && max !== null) return `${integer}${min}-${max}`;
  if (min !== null) return `${integer}≥ ${min}`;
  if (max !== null) return `${integer}≤ ${max}`;
  return integer.trim();
}

/** What a value may be: allowed values, a numeric range, a length, a pattern or a URL. */
export function rangeText(setting: SettingSchema): string {
  if (setting.enum) return setting.enum.map((value) => code(String(value))).join(", ");
  if (setting.type === "integer" || setting.type === "number") return numberRange(setting);
  const parts: string[] = [];
  if (setting.format === "uri") parts.push("URL");
  if (setting.minLength !== undefined) parts.push(`${setting.minLength}+ characters`);
  if (setting.maxLength !== undefined) parts.push(`at most ${setting.maxLength} characters`);
  if (setting.pattern !== undefined) parts.push(code(setting.pattern));
  return parts.join(", ");
}

interface Row {
  name: string;
  default: string;
  range: string;
  meaning: string;
}

function row(name: string, doc: ConfigSchemaDoc): Row {
  const setting = doc.properties[name]!;
  return {
    name,
    default: defaultText(name, setting, doc),
    range: rangeText(setting),
    meaning: setting.description?.trim() ?? "",
  };
}

/** A setting both apps read: one row, saying where the two differ. */
function bothRow(name: string, sources: ConfigSources): Row {
  const bot = row(name, sources.bot);
  const worker = row(name, sources.worker);
  const either = (field: keyof Row) =>
    bot[field] === worker[field] ? bot[field] : `Bot: ${bot[field]} Worker: ${worker[field]}`;
  return { name, default: either("default"), range: either("range"), meaning: either("meaning") };
}

function table(rows: readonly Row[]): string[] {
  return [
    "| variable | default | allowed | meaning |",
    "|---|---|---|---|",
    ...rows.map(
      (r) => `| ${code(r.name)} | ${cell(r.default)} | ${cell(r.range)} | ${cell(r.meaning)} |`,
    ),
  ];
}

const HEADER = [
  "# Configuration",
  "",
  "<!-- Generated from the config schemas by `npm run docs:config`: edit the schemas, not this file. -->",
  "",
  "Every process reads its settings from the environment, then `.env`, then `.env.example` (the",
  "first that sets a variable wins), and refuses to start with one line per problem.",
  "With `NODE_ENV=production` it also refuses `.env.example`'s `LOCK_HASH_KEY`, and `DATABASE_URL`,",
  "`REDIS_URL`, `LOCK_NAMESPACE` (and the bot's `BOT_MODE`) left to `.env.example`.",
];

/** The whole of docs/configuration.md. Throws when a setting has no description. */
export function renderConfigReference(sources: ConfigSources): string {
  const missing = undescribedSettings([sources.shared, sources.bot, sources.worker]);
  if (missing.length > 0)
    throw new Error(`settings without a description (.describe()): ${missing.join(", ")}`);
  const shared = new Set(Object.keys(sources.shared.properties));
  const own = (doc: ConfigSchemaDoc) => Object.keys(doc.properties).filter((n) => !shared.has(n));
  const workerOwn = new Set(own(sources.worker));
  const both = own(sources.bot).filter((name) => workerOwn.has(name));
  const botOnly = own(sources.bot).filter((name) => !workerOwn.has(name));
  const workerOnly = own(sources.worker).filter((name) => !both.includes(name));
  const sections: [string, Row[]][] = [
    [
      "Every process (packages/platform/src/config.ts, redis.ts)",
      [...shared].map((n) => row(n, sources.shared)),
    ],
    ["Bot and worker", both.map((n) => bothRow(n, sources))],
    ["Bot only (apps/bot/src/config.ts)", botOnly.map((n) => row(n, sources.bot))],
    ["Worker only (apps/worker/src/config.ts)", workerOnly.map((n) => row(n, sources.worker))],
  ];
  const body = sections.flatMap(([title, rows]) => ["", `## ${title}`, "", ...table(rows)]);
  return [...HEADER, ...body, ""].join("\n");
}
