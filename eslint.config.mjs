import js from "@eslint/js";
import importX from "eslint-plugin-import-x";
import tseslint from "typescript-eslint";

const PURE_FORBIDDEN_IMPORTS = [
  { group: ["node:*", "fs", "path", "os", "crypto", "child_process", "http", "net"], message: "the pure core is pure: no I/O" },
  { group: ["@grpc/*", "@aws-sdk/*", "@nats-io/*", "ioredis", "@opentelemetry/*"], message: "the pure core is pure: no transport, storage or telemetry" },
];
const PROJECTION_IMPORTS = { group: ["@loupe/*", "!@loupe/errors", "!@loupe/proto"], message: "@loupe/projection depends only on errors and (types of) proto" };
const CONVERSATION_IMPORTS = {
  group: ["@loupe/*", "!@loupe/errors", "!@loupe/projection"],
  message: "@loupe/conversation depends only on errors and projection",
};

export default tseslint.config(
  {
    ignores: ["**/dist/**", "**/node_modules/**", "packages/proto/src/gen/**", "**/.scratch/**", "**/*.mjs", "**/*.js", "**/*.cjs"],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { "import-x": importX },
    settings: { "import-x/resolver": { node: true } },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "separate-type-imports" }],
      "@typescript-eslint/explicit-module-boundary-types": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "import-x/no-cycle": "error",
      // Async functions that implement a Promise-returning interface need no await.
      "@typescript-eslint/require-await": "off",
      eqeqeq: ["error", "smart"],
      // `total.count += await work()` reads the count before the await: concurrent calls lose each other's updates.
      "require-atomic-updates": "error",
      "no-restricted-imports": ["error", { patterns: [{ group: ["@loupe/*/src/*", "@loupe/*/src"], message: "import the package, not its files" }] }],
    },
  },
  {
    files: ["packages/**/*.ts"],
    ignores: ["packages/**/*.test.ts", "packages/testing/**"],
    rules: { "no-console": "error" },
  },
  {
    files: ["packages/projection/src/**/*.ts", "packages/conversation/src/**/*.ts"],
    ignores: ["packages/*/src/**/*.test.ts", "packages/*/src/testing/**"],
    rules: {
      "no-restricted-imports": ["error", { patterns: PURE_FORBIDDEN_IMPORTS }],
      "no-restricted-globals": [
        "error",
        { name: "process", message: "the pure core is pure: pass configuration in" },
        { name: "Buffer", message: "the pure core is pure: use Uint8Array/TextEncoder" },
        { name: "setTimeout", message: "the pure core is pure: no clock" },
        { name: "fetch", message: "the pure core is pure: no I/O" },
      ],
      "no-restricted-properties": [
        "error",
        { object: "Date", property: "now", message: "the pure core is pure: no clock" },
        { object: "Math", property: "random", message: "the pure core is pure: no randomness" },
        { object: "crypto", property: "getRandomValues", message: "the pure core is pure: no randomness" },
      ],
      "no-restricted-syntax": ["error", { selector: "NewExpression[callee.name='Date']", message: "the pure core is pure: no clock" }],
    },
  },
  {
    files: ["packages/projection/src/**/*.ts"],
    ignores: ["packages/*/src/**/*.test.ts", "packages/*/src/testing/**"],
    rules: { "no-restricted-imports": ["error", { patterns: [...PURE_FORBIDDEN_IMPORTS, PROJECTION_IMPORTS] }] },
  },
  {
    files: ["packages/conversation/src/**/*.ts"],
    ignores: ["packages/*/src/**/*.test.ts", "packages/*/src/testing/**"],
    rules: { "no-restricted-imports": ["error", { patterns: [...PURE_FORBIDDEN_IMPORTS, CONVERSATION_IMPORTS] }] },
  },
  {
    files: ["**/*.test.ts", "test/**/*.ts", "**/src/testing/**/*.ts", "**/*-contract.ts"],
    rules: {
      "@typescript-eslint/explicit-module-boundary-types": "off",
      "@typescript-eslint/no-non-null-assertion": "off",
      "@typescript-eslint/require-await": "off",
      // Hooks set the suite's fixtures after awaits by design.
      "require-atomic-updates": "off",
      "@typescript-eslint/no-floating-promises": [
        "error",
        {
          allowForKnownSafeCalls: [
            { from: "package", package: "node:test", name: ["describe", "it", "test", "suite", "before", "after", "beforeEach", "afterEach"] },
          ],
        },
      ],
    },
  },
);
