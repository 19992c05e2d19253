import { ConfigError } from "../../src/config/config-error.js";
import { parseRepoConfig } from "../../src/config/load-repo-config.js";
import { DEFAULT_REPO_CONFIG } from "../../src/config/repo-config.js";

function errorOf(text: string): { kind: string; field: string | null; line: number | null; message: string } {
  const r = parseRepoConfig(text);
  if (r.ok) throw new Error("expected an error");
  expect(ConfigError.isInstance(r.error)).toBe(true);
  return { kind: r.error.kind, field: r.error.field, line: r.error.line, message: r.error.message };
}

describe("parseRepoConfig", () => {
  test("no file, an empty file and a comment-only file all mean the defaults", () => {
    for (const text of [null, "", "   \n", "# nothing yet\n"]) expect(parseRepoConfig(text)).toEqual({ ok: true, config: DEFAULT_REPO_CONFIG });
  });

  test("a full valid file", () => {
    const text = `
setup: npm ci
test: npm test -- --runInBand
timeouts:
  test_seconds: 120
sandbox:
  backend: bubblewrap
  network_for_setup: true
  max_processes: 64
policy:
  allow_commands: ["npm run lint"]
limits:
  max_steps: 40
`;
    expect(parseRepoConfig(text)).toEqual({
      ok: true,
      config: {
        setup: "npm ci",
        test: "npm test -- --runInBand",
        gate: "all_pass",
        timeouts: { setup_seconds: 600, test_seconds: 120, command_seconds: 120 },
        sandbox: {
          backend: "bubblewrap",
          network_for_setup: true,
          allow_hosts: [],
          image: "node:20-bookworm",
          max_processes: 64,
          memory_mb: 2048,
          disk_mb: 2048,
          cpu_seconds: 300,
          max_output_kb: 1024,
        },
        policy: { allow_commands: ["npm run lint"], deny_commands: [], protected_paths: [], executable_config: [] },
        approvals: { plan: "any", writes: "any", grants: "any" },
        limits: { max_steps: 40, max_cost_usd: 5, max_questions: 3 },
      },
    });
  });

  test("broken YAML is a syntax error with its line", () => {
    expect(errorOf("test: npm test\nsandbox:\n\tbackend: docker\n")).toEqual({
      kind: "yaml_syntax",
      field: null,
      line: 3,
      message: ".github/patchgate.yml line 3 is not valid YAML: Tabs are not allowed as indentation",
    });
  });

  test("a duplicated key is refused rather than silently keeping the last", () => {
    expect(errorOf("test: a\ntest: b\n")).toMatchObject({
      kind: "yaml_syntax",
      line: 2,
      message: ".github/patchgate.yml line 2 is not valid YAML: Map keys must be unique",
    });
  });

  test("a wrong type names the field, the line, what was expected and what was found", () => {
    expect(errorOf("test: npm test\ntimeouts:\n  test_seconds: ten\n")).toEqual({
      kind: "invalid_value",
      field: "timeouts.test_seconds",
      line: 3,
      message: '.github/patchgate.yml line 3: `timeouts.test_seconds` expected number, received string, got "ten"',
    });
  });

  test("a value outside the enum names the allowed ones", () => {
    expect(errorOf("sandbox:\n  backend: podman\n")).toEqual({
      kind: "invalid_value",
      field: "sandbox.backend",
      line: 2,
      message: '.github/patchgate.yml line 2: `sandbox.backend` expected one of "auto"|"bubblewrap"|"docker", got "podman"',
    });
  });

  test("an array element of the wrong type is named by index", () => {
    expect(errorOf("policy:\n  allow_commands:\n    - npm run lint\n    - 42\n")).toMatchObject({ field: "policy.allow_commands.1", line: 4 });
  });

  test("an unknown (misspelt) field is named with the keys allowed there", () => {
    expect(errorOf("sandbox:\n  max_procs: 10\n")).toEqual({
      kind: "unknown_field",
      field: "sandbox.max_procs",
      line: 2,
      message:
        ".github/patchgate.yml line 2: unknown field `sandbox.max_procs`: allowed here: backend, network_for_setup, allow_hosts, image, max_processes, memory_mb, disk_mb, cpu_seconds, max_output_kb",
    });
  });

  test("a top level that is not a mapping", () => {
    expect(errorOf("- npm test\n")).toEqual({
      kind: "invalid_value",
      field: "",
      line: 1,
      message: '.github/patchgate.yml line 1: `(top level)` expected object, received array, got ["npm test"]',
    });
  });

  test("every session has a cost cap: 5 USD unless the file sets one", () => {
    const set = parseRepoConfig("limits:\n  max_cost_usd: 0.5\n");
    const other = parseRepoConfig("limits:\n  max_steps: 3\n");
    expect([DEFAULT_REPO_CONFIG.limits, set.ok && set.config.limits, other.ok && other.config.limits]).toEqual([
      { max_cost_usd: 5, max_questions: 3 },
      { max_cost_usd: 0.5, max_questions: 3 },
      { max_steps: 3, max_cost_usd: 5, max_questions: 3 },
    ]);
  });
});

describe("policy.allow_commands entries", () => {
  test("exact words, or words plus the globs extra words must match", () => {
    const text = "policy:\n  allow_commands:\n    - prettier --check\n    - command: eslint\n      extra_args: ['src/**', '--fix']\n";
    const parsed = parseRepoConfig(text);
    expect(parsed.ok && parsed.config.policy.allow_commands).toEqual(["prettier --check", { command: "eslint", extra_args: ["src/**", "--fix"] }]);
  });
  test.each([
    ["policy:\n  allow_commands:\n    - command: eslint\n", "policy.allow_commands.0", "or `{command, extra_args: [globs]}`"],
    ["policy:\n  allow_commands:\n    - command: eslint\n      extra_args: ['../x/**']\n", "policy.allow_commands.0.extra_args.0", "without `..`"],
    ["policy:\n  allow_commands:\n    - command: eslint\n      extra_args: ['/etc/*']\n", "policy.allow_commands.0.extra_args.0", "relative"],
    ["policy:\n  allow_commands:\n    - command: eslint\n      extra_args: []\n", "policy.allow_commands.0", ""],
    [
      "policy:\n  allow_commands:\n    - command: eslint\n      extra_args: ['src/**']\n      prefix: true\n",
      "policy.allow_commands.0.prefix",
      "unknown field",
    ],
  ])("%j is refused, naming %s", (text, field, problem) => {
    const e = errorOf(text);
    expect(e.field?.startsWith(field)).toBe(true);
    expect(e.message).toContain(problem);
    expect(e.message.split("\n")).toHaveLength(1);
  });
});
