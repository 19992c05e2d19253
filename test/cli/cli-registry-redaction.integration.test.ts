import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { FakeStep } from "../fakes/chat/turns.js";
import { BUGGY_ADD_REPO } from "../helpers/git-fixture.js";
import { cliSessions } from "../helpers/cli-sessions.js";
import { runCli } from "../helpers/cli-process.js";

/**
 * The operator's private-registry credentials, one read from a file of the operator's and one from a
 * variable whose name does not look secret, are redacted by value everywhere the CLI shows a session:
 * the model's words and a command's output at the terminal while it runs, and `show` and `trace`
 * afterwards. Neither can be found by its shape: only the operator's settings say they are secret.
 */
describe("patchgate run with private registries in the operator's settings", () => {
  const sessions = cliSessions();
  const FROM_FILE = "corp-file-credential-7f3a9c41d2";
  const FROM_ENV = "corp-env-credential-e81b05c7aa";

  test("never shows a registry credential, whether it was read from a file or the environment", async () => {
    const said = `I will use ${FROM_FILE} and ${FROM_ENV}`;
    const steps: FakeStep[] = [
      { toolCalls: [{ name: "submit_plan", arguments: { summary: said, steps: ["fix the operator"] } }] },
      { toolCalls: [{ name: "read_file", arguments: { path: "src/add.js" } }] },
      { toolCalls: [{ name: "edit_file", arguments: { path: "src/add.js", edits: [{ search: "a - b", replace: "a + b" }] } }] },
      { toolCalls: [{ name: "run_tests", arguments: {} }] },
      { toolCalls: [{ name: "finish", arguments: { summary: said } }] },
    ];
    // The test run prints both values, as a misbehaving build could.
    const files = { ...BUGGY_ADD_REPO, "test.sh": `echo "registry said ${FROM_FILE} / ${FROM_ENV}"\n${BUGGY_ADD_REPO["test.sh"]}` };
    const { repo, data, env } = await sessions.start(steps, { files, prefix: "pg-reg-redact-" });
    const credentialFile = join(data, "corp-credential");
    writeFileSync(credentialFile, `${FROM_FILE}\n`, { mode: 0o600 });
    const settings = join(data, "settings.yml");
    writeFileSync(
      settings,
      [
        "sandbox:",
        "  registries:",
        "    - name: corp-scoped",
        "      type: npm",
        '      scope: "@corp"',
        "      url: https://npm.corp.example/",
        `      credential: { file: ${credentialFile} }`,
        "    - name: corp-default",
        "      type: npm",
        "      url: https://npm2.corp.example/",
        "      credential: { env: CORP_REGISTRY_CRED }",
        "",
      ].join("\n"),
    );
    const withCredential = { ...env, CORP_REGISTRY_CRED: FROM_ENV };

    const run = await runCli(["run", "--repo", repo, "--approve-plan", "--approve-writes", "--verbose", "--settings", settings, "Fix add"], withCredential);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    // What was shown is there, without the values: the plan, the finish, the run's output.
    expect(run.stdout).toContain("registry said [REDACTED:");
    expect(run.stdout).toContain("I will use [REDACTED:");
    for (const value of [FROM_FILE, FROM_ENV]) expect(run.stdout).not.toContain(value);

    const sessionId = /session (\S+)/.exec(run.stdout)![1];
    const withSettings = { ...withCredential, PATCHGATE_SETTINGS: settings };
    for (const args of [
      ["show", sessionId],
      ["show", sessionId, "--events"],
      ["trace", sessionId],
    ]) {
      const shown = await runCli(args, withSettings);
      expect({ args, code: shown.code }).toEqual({ args, code: 0 });
      expect(shown.stdout).toContain("[REDACTED:");
      for (const value of [FROM_FILE, FROM_ENV]) expect(shown.stdout).not.toContain(value);
    }
  }, 240_000);
});
