// One lint setup for the whole monorepo. Type-aware rules catch the mistakes that matter most in
// concurrent code: a floating promise is a lock that may never be released. The import rules hold
// the package boundaries (README: apps -> core -> {lock, db, platform}) and make every workspace
// declare what it imports; tests/lint/boundaries.test.ts shows each of them firing.
import js from "@eslint/js";
import { createNodeResolver, importX } from "eslint-plugin-import-x";
import tseslint from "typescript-eslint";

/** Every workspace: reach another one through its package name and its exports, never its files. */
const INTERNALS = {
  regex: "^@orderbot/[^/]+/(src|test)(/|$)",
  message:
    "Import a workspace by its package name (its exports), not its src/ or test/ files: what another package keeps inside is not an API.",
};

/** apps/bot/src/features: handlers call domain services (core), they never touch storage. */
const FEATURE_STORAGE = [
  {
    group: ["@orderbot/db", "@orderbot/db/*", "@prisma/*", "prisma", "prisma/*"],
    message:
      "Bot features do not touch the database: call a domain service of @orderbot/core (types and enums are re-exported there).",
  },
  {
    group: ["ioredis", "ioredis/*"],
    message:
      "Bot features do not touch Redis: locks, caches and rate limits come in through the feature's dependencies.",
  },
];

/** The same storage, reached by `import()` (a value or a type), which no-restricted-imports misses. */
const STORAGE_MODULE = String.raw`/^(@orderbot\/db|@prisma\/|prisma)(\/|$)/`;
const FEATURE_STORAGE_BY_EXPRESSION = [
  "error",
  ...[
    `ImportExpression > Literal.source[value=${STORAGE_MODULE}]`,
    `TSImportType > Literal.source[value=${STORAGE_MODULE}]`,
  ].map((selector) => ({ selector, message: FEATURE_STORAGE[0].message })),
];

/** The one writer of events and the one of deliveries; no other product code inserts into them. */
const EVENT_WRITER_FILES = [
  "packages/core/src/events/record.ts",
  "packages/core/src/events/expand.ts",
];
const EVENT_WRITERS = {
  selector:
    'TemplateElement[value.raw=/INSERT\\s+INTO\\s+"?(events|deliveries)\\b|record_event\\s*\\(/i]',
  message: "Events are written by recordEvent (core/events/record.ts) only.",
};

/** apps/bot/src/storefront: a second way into the shop calls core, never the chat's features. */
const STOREFRONT_APART = [
  {
    regex: String.raw`(^|/)features(/|$)`,
    message:
      "The storefront does not import the chat's features (apps/bot/src/features): a rule both ways in need moves to @orderbot/core.",
  },
];

/** packages/core: business rules know nothing of Telegram or HTTP. */
const CORE_TRANSPORT = [
  {
    group: ["grammy", "grammy/*", "@grammyjs/*"],
    message: "Core knows nothing of Telegram: grammY belongs to the apps.",
  },
  {
    group: ["fastify", "fastify/*", "@fastify/*"],
    message: "Core knows nothing of HTTP: Fastify belongs to the apps.",
  },
  {
    group: ["@orderbot/conversation", "@orderbot/conversation/*", "@fluent/*"],
    message:
      "Core knows the shop, not the chat: texts, languages, buttons and message ids belong to @orderbot/conversation.",
  },
];

/**
 * packages/core/src: money and people are data there (an amount and a currency, a user id). How
 * they read ("25 ⭐", "Ann (@ann)") is the conversation's: core exports no formatter and holds none
 * of the tools one is made of.
 */
const CORE_WORDS =
  "Core speaks the shop's language only: formatting money or names is @orderbot/conversation's job.";
const FORMATTER_NAME = "/^(format|render|display)[A-Z]/";
const LABEL_NAME = "/^label[A-Z]|Label$/";
const CORE_FORMATTING = [
  `FunctionDeclaration[id.name=${FORMATTER_NAME}]`,
  `VariableDeclarator[id.name=${FORMATTER_NAME}]`,
  `ExportNamedDeclaration > FunctionDeclaration[id.name=${LABEL_NAME}]`,
  `ExportNamedDeclaration > VariableDeclaration > VariableDeclarator[id.name=${LABEL_NAME}]`,
  `ExportSpecifier[exported.name=${FORMATTER_NAME}]`,
  `ExportSpecifier[exported.name=${LABEL_NAME}]`,
  "MemberExpression[object.name='Intl'][property.name=/^(NumberFormat|RelativeTimeFormat|ListFormat|PluralRules|DisplayNames)$/]",
  "CallExpression[callee.property.name=/^toLocale/]",
  "Literal[value=/⭐/]",
  "TemplateElement[value.raw=/⭐/]",
].map((selector) => ({ selector, message: CORE_WORDS }));

/** packages/lock/src: copyable alone, so it imports no other workspace. */
const LOCK_ALONE = [
  {
    group: ["@orderbot/*"],
    message:
      "The lock package is copyable alone: its src/ imports no @orderbot/* workspace (only its tests may use @orderbot/testkit).",
  },
];

const restrict = (...patterns) => ({
  "no-restricted-imports": ["error", { patterns: [INTERNALS, ...patterns] }],
});

/** Where devDependencies may be imported: tests, test support, benchmarks, tooling config. */
const DEV_FILES = [
  "**/test/**",
  "**/tests/**",
  "**/bench/**",
  "**/scripts/**",
  // The test kit's fixtures register vitest hooks for the test file that calls them.
  "packages/testkit/src/fixtures/**",
  "**/vitest.config.ts",
  "**/vitest.shared.ts",
  "**/eslint.config.js",
  "**/prisma.config.ts",
];

export default tseslint.config(
  {
    ignores: [
      "**/node_modules/**",
      "**/dist/**",
      "**/generated/**",
      ".data/**",
      "**/.turbo/**",
      // Snippets that break the rules on purpose, linted by tests/lint/boundaries.test.ts as if
      // they lived at the forbidden path.
      "tests/lint/fixtures/**",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.ts"],
    languageOptions: {
      // One type-checked program over the whole tree (the root tsconfig.json), as `npm run typecheck`.
      parserOptions: { project: "./tsconfig.json", tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": "error",
      "@typescript-eslint/await-thenable": "error",
      // A switch over a result names every outcome: a new outcome is a compile-time to-do list,
      // not a silent fall into `default`.
      "@typescript-eslint/switch-exhaustiveness-check": [
        "error",
        { considerDefaultExhaustiveForUnions: false, requireDefaultForNonUnion: false },
      ],
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_" },
      ],
      "no-restricted-properties": [
        "error",
        {
          object: "process",
          property: "env",
          message: "Read the environment only in an app's config.ts.",
        },
      ],
    },
  },
  {
    // The places allowed to read the environment: each app's config, scripts and test bootstrap.
    files: [
      "**/config.ts",
      "**/config/*.ts",
      "scripts/**",
      "tests/**",
      "**/test/**",
      "packages/testkit/src/**",
      "packages/db/src/cli/**",
      "packages/runtime/src/cli/**",
      "**/bench/**",
      "**/vitest.config.ts",
      "prisma.config.ts",
    ],
    rules: { "no-restricted-properties": "off" },
  },

  // ---------------------------------------------------------------- imports and boundaries
  {
    // Every import is declared by the workspace whose package.json is nearest the importing file
    // (the root's for tests/, scripts and root config); devDependencies only where tests and
    // tooling live. Workspace links (@orderbot/*) resolve outside node_modules, hence
    // includeInternal.
    files: ["**/*.ts", "**/*.js"],
    plugins: { "import-x": importX },
    settings: { "import-x/resolver-next": [createNodeResolver()] },
    rules: {
      "import-x/no-extraneous-dependencies": [
        "error",
        { devDependencies: DEV_FILES, includeInternal: true, includeTypes: true },
      ],
      // `../../packages/lock/src/x.ts`, `../../apps/bot/test/...`: another workspace's files.
      "import-x/no-relative-packages": "error",
      ...restrict(),
    },
  },
  {
    // Events have one writer (packages/core/src/events/record.ts, in the change's transaction) and
    // deliveries one (expand.ts): no other product code inserts into either table. The blocks below
    // that set no-restricted-syntax again repeat this selector (a later setting replaces it).
    files: ["apps/*/src/**/*.ts", "packages/*/src/**/*.ts"],
    ignores: EVENT_WRITER_FILES,
    rules: { "no-restricted-syntax": ["error", EVENT_WRITERS] },
  },
  {
    files: ["apps/bot/src/features/**/*.ts"],
    rules: {
      ...restrict(...FEATURE_STORAGE),
      "no-restricted-syntax": [...FEATURE_STORAGE_BY_EXPRESSION, EVENT_WRITERS],
    },
  },
  { files: ["apps/bot/src/storefront/**/*.ts"], rules: restrict(...STOREFRONT_APART) },
  { files: ["packages/core/**/*.ts"], rules: restrict(...CORE_TRANSPORT) },
  {
    files: ["packages/core/src/**/*.ts"],
    ignores: EVENT_WRITER_FILES,
    rules: { "no-restricted-syntax": ["error", ...CORE_FORMATTING, EVENT_WRITERS] },
  },
  {
    files: EVENT_WRITER_FILES,
    rules: { "no-restricted-syntax": ["error", ...CORE_FORMATTING] },
  },
  { files: ["packages/lock/src/**/*.ts"], rules: restrict(...LOCK_ALONE) },
  {
    // Product code: functions a reader can hold. Tests, benchmarks and the test kit may be longer.
    files: [
      "apps/*/src/**/*.ts",
      "packages/*/src/**/*.ts",
      "packages/fake-telegram/web-client/**/*.js",
    ],
    ignores: ["packages/testkit/**"],
    rules: {
      "max-lines-per-function": ["error", { max: 60, skipBlankLines: true, skipComments: true }],
    },
  },
  {
    // The one exception: each workspace's vitest.config.ts extends the root's shared test settings
    // (tooling, as tsconfig.json extends tsconfig.base.json), not another workspace's code.
    files: ["**/vitest.config.ts"],
    rules: { "import-x/no-relative-packages": "off" },
  },

  { files: ["**/*.js", "**/*.mjs"], ...tseslint.configs.disableTypeChecked },
  {
    // The fake Telegram's web client runs in a browser, as plain ES modules with no build step.
    files: ["packages/fake-telegram/web-client/**/*.js"],
    languageOptions: {
      globals: Object.fromEntries(
        [
          "document",
          "location",
          "fetch",
          "EventSource",
          "FileReader",
          "setTimeout",
          "clearTimeout",
        ].map((name) => [name, "readonly"]),
      ),
    },
  },
);
