import { commandWords, isSetupInput, namedBySetup } from "../../src/policy/setup-inputs.js";

describe("setup inputs: the files that decide what the setup runs", () => {
  const none: string[] = [];

  test.each([
    ".github/patchgate.yml",
    "package.json",
    "package-lock.json",
    "packages/ui/package.json",
    "yarn.lock",
    "pnpm-lock.yaml",
    ".npmrc",
    "sub/.yarnrc.yml",
    ".yarn/plugins/evil.cjs",
    "tools/.yarn/releases/yarn.cjs",
    "requirements.txt",
    "requirements-dev.txt",
    "ci/constraints.txt",
    "pyproject.toml",
    "setup.py",
    "go.sum",
    "Cargo.lock",
    "Gemfile.lock",
    "binding.gyp",
  ])("%s is a setup input whatever the command", (p) => {
    expect(isSetupInput(p, none)).toBe(true);
  });

  test.each(["src/index.js", "README.md", "test.sh", "docs/package.md", "requirementsX.txt", "my-package.json", ".github/workflows/ci.yml"])(
    "%s is not",
    (p) => {
      expect(isSetupInput(p, none)).toBe(false);
    },
  );

  test("the files the setup command names count, with or without ./", () => {
    const named = namedBySetup("sh ./scripts/setup.sh && bash tools/more.sh --fast");
    expect(isSetupInput("scripts/setup.sh", named)).toBe(true);
    expect(isSetupInput("tools/more.sh", named)).toBe(true);
    expect(isSetupInput("scripts/other.sh", named)).toBe(false);
  });

  test("make brings in the Makefile; an install script of package.json names its file", () => {
    expect(isSetupInput("Makefile", namedBySetup("make deps"))).toBe(true);
    expect(isSetupInput("Makefile", namedBySetup("npm ci"))).toBe(false);
    const named = namedBySetup("npm ci", ["node tools/fetch-binaries.js", "husky install"]);
    expect(isSetupInput("tools/fetch-binaries.js", named)).toBe(true);
  });

  test("command words: quotes, operators and assignments split; flags and absolute paths dropped", () => {
    expect(commandWords(`FOO=bar sh -c "./a.sh; b/c.sh" | tee /tmp/log`)).toEqual(["FOO", "bar", "sh", "a.sh", "b/c.sh", "tee"]);
  });
});
