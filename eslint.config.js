// ESLint's flat config for the web client (kiti/server/static/js): ES modules in a browser.
// The rules catch bugs (undefined names, unused bindings, loose equality, unreachable code),
// not style: the code's layout is left to the authors.  Run: `npm ci` once, then `npx eslint`.
import js from "@eslint/js";
import globals from "globals";

export default [
  {ignores: [".venv/", "build/", "dist/", "results/", "tests/artifacts/"]},
  {
    files: ["kiti/server/static/js/**/*.js", "kiti/games/*/*.js"],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "module",
      globals: globals.browser,
    },
    linterOptions: {reportUnusedDisableDirectives: "error"},
    rules: {
      ...js.configs.recommended.rules,
      "no-unused-vars": ["error", {argsIgnorePattern: "^_", caughtErrors: "none"}],
      eqeqeq: ["error", "always", {null: "ignore"}],
      "array-callback-return": "error",
      "no-promise-executor-return": "error",
      "no-self-compare": "error",
      "no-template-curly-in-string": "error",
      "no-unmodified-loop-condition": "error",
      "no-unreachable-loop": "error",
      "no-use-before-define": ["error", {functions: false, classes: false, variables: true}],
      "no-new-wrappers": "error",
    },
  },
];
