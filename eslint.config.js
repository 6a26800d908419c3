// One ESLint config for the whole tree. Formatting is Prettier's: eslint-config-prettier comes last and turns
// off every rule that would disagree with it. `npm run lint` runs both tools; `npm run lint -- --fix` fixes
// what they can.
import js from "@eslint/js";
import prettier from "eslint-config-prettier";
import jsxA11y from "eslint-plugin-jsx-a11y";
import reactHooks from "eslint-plugin-react-hooks";
import { defineConfig, globalIgnores } from "eslint/config";
import globals from "globals";
import tseslint from "typescript-eslint";

export default defineConfig(
  globalIgnores([
    "build/",
    "bench/stock-app/build/",
    ".react-router/",
    "bench/stock-app/.react-router/",
    "data/",
    "test-results/",
    "playwright-report/",
    "tests/.tmp/",
  ]),
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: "module",
      // Route modules run on both sides; server.ts, scripts and tests on Node only.
      globals: { ...globals.browser, ...globals.node },
    },
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: {
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none", ignoreRestSiblings: true },
      ],
      // Off: our regular expressions with control characters are there to find them (NUL that PostgreSQL text
      // refuses, ASCII ranges in domain names, search terms and page shells).
      "no-control-regex": "off",
    },
  },
  {
    // React code only: elsewhere `use` and `useAppServer` are Playwright and Vitest fixtures, not hooks.
    files: ["app/**/*.{ts,tsx}", "bench/stock-app/app/**/*.{ts,tsx}"],
    extends: [reactHooks.configs.flat["recommended-latest"], jsxA11y.flatConfigs.recommended],
    rules: {
      // A warning is easy to miss: a dependency list the rule disagrees with is fixed or explained.
      "react-hooks/exhaustive-deps": "error",
    },
  },
  {
    // Migrations must not depend on today's schema type: Kysely's guide types them Kysely<any>.
    files: ["db/migrations/**/*.ts", "app/server/db/migrator.server.ts", "scripts/migrate-to-postgres.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  {
    files: ["tests/**/*.ts"],
    rules: {
      // Off in tests: rows read with raw SQL and JSON bodies are `any`, and the assertions check their shape.
      "@typescript-eslint/no-explicit-any": "off",
      // Off in tests: Playwright reads a fixture's dependencies from its first parameter, so none is `{}`,
      // and `extend<{}, WorkerFixtures>` is its documented way to add worker fixtures only.
      "no-empty-pattern": "off",
      "@typescript-eslint/no-empty-object-type": "off",
    },
  },
  prettier,
);
