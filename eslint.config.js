// One lint setup for the whole monorepo. Type-aware rules catch the mistakes that matter most in
// concurrent code: a floating promise is a lock that may never be released.
import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["**/node_modules/**", "**/dist/**", "**/generated/**", ".data/**", ".turbo/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.ts"],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": "error",
      "@typescript-eslint/await-thenable": "error",
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
      "**/vitest.config.ts",
      "prisma.config.ts",
    ],
    rules: { "no-restricted-properties": "off" },
  },
  { files: ["**/*.js", "**/*.mjs"], ...tseslint.configs.disableTypeChecked },
);
