// ESLint (flat config) with typescript-eslint: the one lint configuration (`npm run lint`).
// Formatting is prettier's job (.prettierrc), so no rule here is about layout.
import js from "@eslint/js";
import tseslint from "typescript-eslint";

/** What Node gives every script, for the plain JavaScript files (TypeScript checks its own). */
const nodeGlobals = Object.fromEntries(
  [
    "process",
    "console",
    "Buffer",
    "URL",
    "setTimeout",
    "clearTimeout",
    "setInterval",
    "clearInterval",
    "setImmediate",
    "fetch",
    "structuredClone",
    "AbortController",
    "performance",
  ].map((name) => [name, "readonly"]),
);
const commonJsGlobals = { require: "readonly", module: "writable", exports: "writable", __dirname: "readonly", __filename: "readonly" };

export default tseslint.config(
  { ignores: ["dist/**", "node_modules/**", "coverage/**", "cassettes/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      // the fake providers and LangChain's own types deal in untyped JSON
      "@typescript-eslint/no-explicit-any": "off",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" }],
      // a CommonJS library that must load one particular copy of core (its ESM files, its
      // package.json, a path computed at run time) needs require(); it is a tool here, not a smell
      "@typescript-eslint/no-require-imports": "off",
      // called on class prototypes, which always inherit Object.prototype
      "no-prototype-builtins": "off",
    },
  },
  // chai's property assertions (`expect(x).to.be.true`) are expressions
  { files: ["test/**/*.ts", "examples/**/*.ts"], rules: { "@typescript-eslint/no-unused-expressions": "off" } },
  { files: ["**/*.mjs", "**/*.js"], languageOptions: { globals: nodeGlobals } },
  // CommonJS files, and mocha spec files a child mocha loads with require (under mocha's globals)
  {
    files: ["**/*.cjs", "test/plugin-specs/**/*.js"],
    languageOptions: { sourceType: "commonjs", globals: { ...nodeGlobals, ...commonJsGlobals } },
  },
  {
    files: ["test/plugin-specs/**/*.js", "test/plugin-specs/**/*.mjs"],
    languageOptions: { globals: Object.fromEntries(["describe", "it", "before", "after", "beforeEach", "afterEach"].map((n) => [n, "readonly"])) },
  },
);
