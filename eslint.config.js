// @ts-check
// Lint: ESLint's and typescript-eslint's recommended rules, plus the layering of src/: its import
// zones are generated from the layer table in layers.js (drawn in ARCHITECTURE.md).
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import importX from "eslint-plugin-import-x";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
import globals from "globals";
import { existsSync } from "node:fs";
import { faceZones, LAYERS, layerZones } from "./layers.js";

/** The folders of src/ that have a face: other folders import them only through it. */
const faced = LAYERS.flatMap((layer) => layer.folders).filter((f) => f.endsWith("/") && existsSync(`src/${f}index.ts`));

const layering = [
  ...layerZones(),
  ...faceZones(faced),
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
    },
  },
  // TypeScript checks names itself; ESLint's no-undef does not know its types.
  { files: ["**/*.ts"], rules: { "no-undef": "off" } },
  // Webhook payloads are read field by field on purpose: a missing field throws a TypeError, which
  // becomes a MalformedWebhookError naming the delivery (see src/github/inbound/triggers.ts).
  {
    files: ["src/github/inbound/triggers.ts", "src/github/inbound/lifecycle-events.ts", "src/github/inbound/pull-push.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
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
