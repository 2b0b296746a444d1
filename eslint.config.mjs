// typescript-eslint's recommended rules (syntactic: no type information) over the TypeScript and
// JavaScript of the repository, with the rules that decide layout left to Prettier.
//
// The type-aware set (recommendedTypeChecked) was measured on this repository: about 17 s and 1 GB
// against 5 s and 0.4 GB, for 208 more findings that were deliberate (a sentinel thrown to start a
// walk over, a sparse array built on purpose, tool calls left running to warm a cache) or `any`
// from JSON.parse and require() in the tests. It is not enabled.
import js from "@eslint/js";
import { defineConfig } from "eslint/config";
import prettier from "eslint-config-prettier";
import globals from "globals";
import tseslint from "typescript-eslint";

export default defineConfig(
  {
    ignores: [
      "dist/",
      ".build/",
      "coverage/",
      "scratch/",
      "examples/weather/dist/",
      // Test inputs: some are written to be refused (any, unused parameters of stub tools), and
      // each fixture's expected.json records diagnostics by line and column.
      "fixtures/",
    ],
  },
  {
    // A disable comment that no longer disables anything is itself an error, so that none outlives
    // its reason.
    linterOptions: { reportUnusedDisableDirectives: "error" },
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { globals: globals.node },
    rules: {
      // The package is CommonJS, and require() is how it loads a module lazily and synchronously:
      // TypeScript only once its version is known, the TypeScript 7 path only under TypeScript 7,
      // and in the tests, compiled fixtures and configurations by path.
      "@typescript-eslint/no-require-imports": "off",
      // A leading underscore marks a name that a signature or a destructuring needs but the body
      // does not use (a decorator's third parameter, a property left out of a rest object).
      "@typescript-eslint/no-unused-vars": [
        "error",
        {
          argsIgnorePattern: "^_",
          varsIgnorePattern: "^_",
          caughtErrorsIgnorePattern: "^_",
          destructuredArrayIgnorePattern: "^_",
          ignoreRestSiblings: true,
        },
      ],
    },
  },
  {
    files: ["**/*.js"],
    languageOptions: { sourceType: "commonjs" },
  },
  prettier,
);
