// The lint rules that hold the package boundaries and the formatting, shown firing: each fixture
// in fixtures/ breaks one rule and says on its first line the path it is linted as (ESLint's
// lintText with that filePath), so a snippet can stand where it is forbidden without living there.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { ESLint, type Linter } from "eslint";
import * as prettier from "prettier";
import tseslint from "typescript-eslint";
import { beforeAll, describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "@orderbot/testkit";

const FIXTURES = path.join(import.meta.dirname, "fixtures");

const RESTRICTED = "no-restricted-imports";
const EXTRANEOUS = "import-x/no-extraneous-dependencies";
const RELATIVE = "import-x/no-relative-packages";
const SYNTAX = "no-restricted-syntax";
const CORE_WORDS = "Core speaks the shop's language only";

/** Each fixture, the rule it breaks and a piece of that rule's message. */
const REJECTED: { fixture: string; rule: string; message: string }[] = [
  {
    fixture: "feature-imports-db.ts",
    rule: RESTRICTED,
    message: "Bot features do not touch the database",
  },
  {
    fixture: "feature-imports-prisma.ts",
    rule: RESTRICTED,
    message: "Bot features do not touch the database",
  },
  {
    fixture: "feature-imports-prisma-adapter.ts",
    rule: RESTRICTED,
    message: "Bot features do not touch the database",
  },
  {
    fixture: "feature-imports-db-dynamically.ts",
    rule: "no-restricted-syntax",
    message: "Bot features do not touch the database",
  },
  {
    fixture: "feature-imports-db-type.ts",
    rule: "no-restricted-syntax",
    message: "Bot features do not touch the database",
  },
  {
    fixture: "feature-imports-redis.ts",
    rule: RESTRICTED,
    message: "Bot features do not touch Redis",
  },
  {
    fixture: "storefront-imports-feature.ts",
    rule: RESTRICTED,
    message: "The storefront does not import the chat's features",
  },
  {
    fixture: "core-imports-grammy.ts",
    rule: RESTRICTED,
    message: "Core knows nothing of Telegram",
  },
  {
    fixture: "core-imports-grammyjs.ts",
    rule: RESTRICTED,
    message: "Core knows nothing of Telegram",
  },
  { fixture: "core-imports-fastify.ts", rule: RESTRICTED, message: "Core knows nothing of HTTP" },
  {
    fixture: "product-function-too-long.ts",
    rule: "max-lines-per-function",
    message: "has too many lines (64). Maximum allowed is 60.",
  },
  {
    fixture: "core-imports-conversation.ts",
    rule: RESTRICTED,
    message: "Core knows the shop, not the chat",
  },
  {
    fixture: "core-imports-fluent.ts",
    rule: RESTRICTED,
    message: "Core knows the shop, not the chat",
  },
  { fixture: "core-exports-formatter.ts", rule: SYNTAX, message: CORE_WORDS },
  { fixture: "core-exports-label.ts", rule: SYNTAX, message: CORE_WORDS },
  { fixture: "core-number-format.ts", rule: SYNTAX, message: CORE_WORDS },
  { fixture: "core-to-locale-string.ts", rule: SYNTAX, message: CORE_WORDS },
  { fixture: "core-star-sign.ts", rule: SYNTAX, message: CORE_WORDS },
  {
    fixture: "lock-imports-workspace.ts",
    rule: RESTRICTED,
    message: "The lock package is copyable alone",
  },
  { fixture: "imports-src-by-name.ts", rule: RESTRICTED, message: "not its src/ or test/ files" },
  {
    fixture: "imports-test-folder-by-name.ts",
    rule: RESTRICTED,
    message: "not its src/ or test/ files",
  },
  {
    fixture: "imports-src-by-path.ts",
    rule: RELATIVE,
    message: "Relative import from another package is not allowed",
  },
  {
    fixture: "imports-test-folder.ts",
    rule: RELATIVE,
    message: "Relative import from another package is not allowed",
  },
  {
    fixture: "undeclared-dependency.ts",
    rule: EXTRANEOUS,
    message: "'zod' should be listed in the project's dependencies",
  },
  {
    fixture: "dev-dependency-in-src.ts",
    rule: EXTRANEOUS,
    message:
      "'@orderbot/testkit' should be listed in the project's dependencies, not devDependencies",
  },
  {
    fixture: "second-event-writer.ts",
    rule: "no-restricted-syntax",
    message: "Events are written by recordEvent",
  },
  {
    fixture: "test-inside-src.ts",
    rule: EXTRANEOUS,
    message: "'vitest' should be listed in the project's dependencies, not devDependencies",
  },
];

const ALLOWED = ["allowed.ts", "allowed-lock-test.ts"];

function readFixture(name: string): { code: string; filePath: string } {
  const code = readFileSync(path.join(FIXTURES, name), "utf8");
  const target = /^\/\/ Linted as (\S+):/.exec(code)?.[1];
  if (!target) throw new Error(`${name}: the first line must say "// Linted as <path>: ..."`);
  return { code, filePath: path.join(PROJECT_ROOT, target) };
}

let eslint: ESLint;

async function lintFixture(name: string): Promise<Linter.LintMessage[]> {
  const { code, filePath } = readFixture(name);
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages;
}

beforeAll(() => {
  // The repository's own config; the type-aware rules are switched off because a snippet linted
  // at a path that does not exist belongs to no TypeScript project (and these rules need none).
  eslint = new ESLint({
    cwd: PROJECT_ROOT,
    overrideConfig: { files: ["**/*.ts"], ...tseslint.configs.disableTypeChecked },
  });
});

describe("import boundaries", () => {
  it("has a fixture for every case and no fixture without one", () => {
    const cases = [...REJECTED.map((c) => c.fixture), ...ALLOWED].sort();
    expect(readdirSync(FIXTURES).sort()).toEqual(cases);
  });

  it.each(REJECTED)("rejects $fixture ($rule)", async ({ fixture, rule, message }) => {
    const messages = await lintFixture(fixture);
    const fired = messages.filter((m) => m.ruleId === rule);
    expect(fired, JSON.stringify(messages, null, 2)).toHaveLength(1);
    expect(fired[0]!.severity).toBe(2);
    expect(fired[0]!.message).toContain(message);
  });

  it.each(ALLOWED)("accepts %s", async (fixture) => {
    expect(await lintFixture(fixture)).toEqual([]);
  });

  it("keeps the fixtures out of the normal lint run", async () => {
    expect(await eslint.isPathIgnored(path.join(FIXTURES, "allowed.ts"))).toBe(true);
  });
});

describe("formatting", () => {
  const file = path.join(PROJECT_ROOT, "packages/lock/src/index.ts");

  it("checks formatting and workspace versions in npm run lint", () => {
    const pkg = JSON.parse(readFileSync(path.join(PROJECT_ROOT, "package.json"), "utf8")) as {
      scripts: Record<string, string>;
    };
    // sherif first (it is instant), the formatting check last.
    expect(pkg.scripts.lint).toMatch(/^sherif && .* && prettier --check \.$/);
    expect(pkg.scripts.format).toBe("prettier --write .");
  });

  it("formats with the repository's .prettierrc.json", async () => {
    const configFile = path.join(PROJECT_ROOT, ".prettierrc.json");
    expect(await prettier.resolveConfigFile(file)).toBe(configFile);
    expect(await prettier.resolveConfig(file)).toEqual(
      JSON.parse(readFileSync(configFile, "utf8")),
    );
  });

  it("fails prettier --check on drift and passes once formatted", async () => {
    const options = { ...(await prettier.resolveConfig(file)), filepath: file };
    const drifted = "export const kinds = {order:'order',  job : 'job'}\n";
    expect(await prettier.check(drifted, options)).toBe(false);
    const formatted = await prettier.format(drifted, options);
    expect(formatted).toBe('export const kinds = { order: "order", job: "job" };\n');
    expect(await prettier.check(formatted, options)).toBe(true);
  });
});
