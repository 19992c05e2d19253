// @ts-check
// Lint: ESLint's and typescript-eslint's recommended rules, plus the layering of src/ (see
// ARCHITECTURE.md): each zone names a folder and the folders it must never import from.
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import importX from "eslint-plugin-import-x";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
import globals from "globals";

/** The entry layers: they wire everything together, so nothing below may reach up into them. */
const ENTRY = ["./src/github", "./src/cli", "./src/eval", "./src/queue", "./src/index.ts", "./src/main.ts"];
/** The folders below the agent loop: they are used by it and must not depend on it. */
const BELOW_AGENT = ["session", "safety", "config", "store", "policy", "workspace", "sandbox", "toolchain", "depcache", "tools", "trace", "process"];

const layering = [
  // The event-sourced core is pure: it imports nothing else from src/ but the error base (itself importing nothing).
  {
    target: "./src/session",
    from: "./src",
    except: ["./session", "./errors"],
    message: "src/session is the pure core: it imports nothing else from src/ but the error base.",
  },
  // Starting processes is a leaf every layer above may use; it knows nothing of them.
  {
    target: "./src/process",
    from: "./src",
    except: ["./process", "./errors"],
    message: "src/process starts processes; it imports nothing else from src/ (but the error base).",
  },
  // The error base every layer builds its typed errors on.
  { target: "./src/errors", from: "./src", except: ["./errors"], message: "src/errors is the error base: it imports nothing else from src/." },
  // The policy evaluator decides; it never performs.
  {
    target: "./src/policy",
    from: ["./src/agent", "./src/tools", "./src/mcp", "./src/trace", ...ENTRY],
    message: "the policy is a pure evaluator below the tools and the loop.",
  },
  ...BELOW_AGENT.map((dir) => ({
    target: `./src/${dir}`,
    from: ["./src/agent", ...ENTRY],
    message: `src/${dir} sits below the agent loop and the entry layers.`,
  })),
  { target: "./src/mcp", from: ENTRY, message: "src/mcp sits below the entry layers." },
  { target: "./src/agent", from: ENTRY, message: "the agent loop sits below the entry layers." },
  // Test fakes and the demo never ship: nothing in src/ imports from test/ or demo/.
  { target: "./src", from: ["./test", "./demo"], message: "production code must not import test code or the demo." },
];

const RAW_EFFECTS = {
  selector: "CallExpression[callee.property.name=/^(get|put|claim)Effect$/]",
  message: "read and write effects with readEffect/writeEffect/claimEffect and a key from src/store/effects.ts.",
};
/** The operator's variables (the OperatorEnv schema) and the host's environment (child processes, host facts). */
const ENV_READERS = ["src/config/operator-env.ts", "src/process/host-env.ts"];
const PROCESS_ENV = {
  selector:
    "MemberExpression[object.name='process']:matches([property.name='env'], [property.value='env']), VariableDeclarator[init.name='process'] > ObjectPattern > Property[key.name='env']",
  message:
    "read operator variables from the OperatorEnv passed down (src/config/operator-env.ts), the host's environment through hostEnvironment (src/process/host-env.ts).",
};

export default tseslint.config(
  { ignores: ["dist/", "node_modules/", "coverage/", "eval/cases/_fixtures/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    plugins: { "import-x": importX },
    settings: { "import-x/resolver-next": [createTypeScriptImportResolver({ project: "./tsconfig.json" })] },
    rules: {
      // Unused on purpose: a leading underscore says so (callbacks whose signature is fixed).
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrorsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" },
      ],
      "import-x/no-restricted-paths": ["error", { zones: layering }],
      // No barrels: every module is imported from the file that defines it, so an import names where
      // the code is and no index.ts drifts from what it re-exports.
      "no-restricted-imports": [
        "error",
        { patterns: [{ regex: "^\\.{1,2}/(.*/)?index\\.js$", message: "import from the defining module, not a barrel (index.ts)." }] },
      ],
    },
  },
  // TypeScript checks names itself; ESLint's no-undef does not know its types.
  { files: ["**/*.ts"], rules: { "no-undef": "off" } },
  // src/index.ts is Probot's entry (the app function), not a barrel; main.ts boots it.
  { files: ["src/main.ts"], rules: { "no-restricted-imports": "off" } },
  // Webhook payloads are read field by field on purpose: a missing field throws a TypeError, which
  // becomes a MalformedWebhookError naming the delivery (see src/github/inbound/triggers.ts).
  { files: ["src/github/inbound/triggers.ts", "src/github/inbound/lifecycle-events.ts"], rules: { "@typescript-eslint/no-explicit-any": "off" } },
  // The fake GitHub takes request bodies and builds payloads as loosely as GitHub's JSON is: it checks
  // fields itself (with GitHub's error answers) rather than through types.
  { files: ["test/fakes/github/**"], rules: { "@typescript-eslint/no-explicit-any": "off" } },
  // Effect records are read and written through their codecs (src/store/effects.ts), never as raw
  // strings: a key spelled twice drifts, and a raw value read back is a cast, not a check.
  // The environment is read in two places (ENV_READERS), so no variable is read where nobody looks.
  {
    files: ["src/**/*.ts"],
    ignores: ["src/store/**", ...ENV_READERS],
    rules: { "no-restricted-syntax": ["error", RAW_EFFECTS, PROCESS_ENV] },
  },
  { files: ["src/store/**/*.ts"], rules: { "no-restricted-syntax": ["error", PROCESS_ENV] } },
  { files: ENV_READERS, rules: { "no-restricted-syntax": ["error", RAW_EFFECTS] } },
  // Every process is started through src/process/start-process.ts, whose fork happens in the spawn
  // helper, never in the app's process (test/process/no-direct-spawn.integration.test.ts lists why these may).
  // typescript-eslint's copy of the rule, so the barrel rule above keeps its own settings.
  {
    files: ["src/**/*.ts"],
    ignores: ["src/process/helper-connection.ts"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          paths: ["child_process", "node:child_process", "cross-spawn", "execa", "simple-git", "@modelcontextprotocol/sdk/client/stdio.js"].map((name) => ({
            name,
            message: "start processes with startProcess/runProcess (src/process): they fork in the spawn helper, not in the app's event loop.",
          })),
        },
      ],
    },
  },
);
