import { askForExecutableConfig } from "../../src/policy/executable-approval.js";
import { EXECUTABLE_CONFIG, executableConfigPath } from "../../src/policy/executable-config.js";
import { changedExecutableKeys, judgeExecutableChange } from "../../src/policy/install-hooks.js";
import { applyStandingAnswers } from "../../src/policy/standing-answers.js";
import { isProtectedPath } from "../../src/policy/path-confinement.js";
import type { PolicyDecision } from "../../src/policy/types.js";

const toolOf = (p: string, extra: string[] = []) => executableConfigPath(p, extra)?.tool ?? null;

describe("the executable-configuration table", () => {
  test.each([
    [".circleci/config.yml", "CircleCI"],
    [".devcontainer/devcontainer.json", "Dev Containers / Codespaces"],
    [".pre-commit-config.yaml", "pre-commit"],
    ["AGENTS.md", "AGENTS.md readers (Codex, Patchgate, others)"],
    [".github/patchgate/instructions.md", "Patchgate"],
  ])("the issue's path %s is executable configuration (%s)", (p, tool) => {
    expect(toolOf(p)).toBe(tool);
  });

  test.each([
    // yarnPath in .yarnrc.yml is run by every yarn command; nested AGENTS.md guide agents in that folder.
    [".yarnrc.yml", "Yarn"],
    ["packages/web/AGENTS.md", "AGENTS.md readers (Codex, Patchgate, others)"],
    ["crates/core/build.rs", "Cargo build scripts"],
    ["native/binding.gyp", "node-gyp (npm install)"],
    [".cargo/config.toml", "Cargo / rustup"],
    ["lefthook.yml", "lefthook"],
    [".envrc", "direnv"],
    ["./.CircleCI/config.yml", "CircleCI"],
  ])("%s is executable configuration (%s)", (p, tool) => {
    expect(toolOf(p)).toBe(tool);
  });

  test.each(["src/add.js", "README.md", "docs/AGENTS.md.bak", "test/circleci.test.js", "package.json", ".nvmrc", ".tool-versions", "pip.conf"])(
    "%s is not (an ordinary file, or a pin that runs nothing)",
    (p) => {
      expect(executableConfigPath(p)).toBeNull();
    },
  );

  test("a repository adds globs; it cannot remove a row", () => {
    expect(toolOf("scripts/deploy.sh", ["scripts/deploy.sh"])).toBe("this repository");
    // No entry of the extra list (not even a negation) makes a row's path ordinary.
    expect(toolOf(".circleci/config.yml", ["!.circleci/**"])).toBe("CircleCI");
  });

  test("every row names its tool and when it runs, and the hard-denied paths stay hard-denied", () => {
    for (const row of EXECUTABLE_CONFIG) {
      expect(row.tool.length).toBeGreaterThan(0);
      expect(row.when.length).toBeGreaterThan(0);
      expect(row.globs.length).toBeGreaterThan(0);
    }
    expect(isProtectedPath(".github/workflows/ci.yml")).toBe(".github/workflows/**");
    expect(isProtectedPath(".circleci/config.yml")).toBeNull();
  });
});

describe("install keys of manifests", () => {
  const pkg = (scripts: Record<string, string>, extra: Record<string, unknown> = {}) => JSON.stringify({ name: "x", version: "1.0.0", scripts, ...extra });

  test("a changed postinstall (or prepare, or a hook key) is executable; a changed test script or version is not", () => {
    expect(changedExecutableKeys("package.json", pkg({ test: "jest" }), pkg({ test: "jest", postinstall: "node x.js" }))).toEqual(["scripts.postinstall"]);
    expect(changedExecutableKeys("packages/a/package.json", pkg({ prepare: "a" }), pkg({ prepare: "b" }))).toEqual(["scripts.prepare"]);
    expect(changedExecutableKeys("package.json", pkg({}), pkg({}, { "simple-git-hooks": { "pre-commit": "x" } }))).toEqual(["simple-git-hooks"]);
    expect(changedExecutableKeys("package.json", pkg({ test: "jest" }), pkg({ test: "vitest" }))).toEqual([]);
    expect(changedExecutableKeys("package.json", pkg({ install: "a" }), pkg({ install: "a" }).replace('"1.0.0"', '"2.0.0"'))).toEqual([]);
  });

  test("a new package.json with an install script is executable; composer event scripts too", () => {
    expect(judgeExecutableChange("package.json", null, pkg({ preinstall: "curl x | sh" }))?.when).toContain("(changed: scripts.preinstall)");
    const composer = (cmd: string) => JSON.stringify({ scripts: { "post-install-cmd": cmd } });
    expect(changedExecutableKeys("composer.json", composer("a"), composer("b"))).toEqual(["scripts.post-install-cmd"]);
  });
});

describe("the policy's own ask", () => {
  const hit = executableConfigPath(".circleci/config.yml");
  const write = { kind: "write" as const, tool: "write_file", path: ".circleci/config.yml" };
  const standing = { autoApproveWrites: true, unattended: false };

  test("an allow or an ask becomes ask:executable-config, which approving every write does not answer", () => {
    const allowed: PolicyDecision = { decision: "allow", rule: "allow:repo-rule" };
    const asked = askForExecutableConfig(allowed, hit);
    expect(asked).toEqual({ decision: "ask", rule: "ask:executable-config", reason: expect.stringContaining("CircleCI"), executableConfig: hit });
    expect(applyStandingAnswers(asked, write, standing)).toEqual(asked);
    expect(applyStandingAnswers(asked, write, { autoApproveWrites: true, unattended: true }).decision).toBe("deny");
  });

  test("a deny stays a deny; an ordinary write is still allowed by the label", () => {
    const denied: PolicyDecision = { decision: "deny", rule: "deny:protected-path" };
    expect(askForExecutableConfig(denied, hit)).toBe(denied);
    const ordinary: PolicyDecision = { decision: "ask", rule: "ask:write" };
    expect(askForExecutableConfig(ordinary, null)).toBe(ordinary);
    expect(applyStandingAnswers(ordinary, { ...write, path: "src/add.js" }, standing).decision).toBe("allow");
  });
});
