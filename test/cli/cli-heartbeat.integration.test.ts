import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { cliSessions } from "../helpers/cli-sessions.js";
import { cliMain } from "../helpers/compiled-app.js";
import { BUGGY_ADD_REPO } from "../helpers/git-fixture.js";
import { ROOT } from "../helpers/run-cli.js";

// The test command waits until the test has seen the heartbeat and says go (a file appearing in
// the clone's .git, which a run sees as the host writes it; its own writes stay in its layer): the status line is then shown while the tests really are running, however fast
// the sandbox starts. Only the first run, the baseline at plan approval, does not wait: it leaves
// an ignored marker (never published, never rolled back) that the model's run finds.
const WAITING_REPO = {
  ...BUGGY_ADD_REPO,
  ".gitignore": ".baseline-ran\n",
  "test.sh": "if [ -e .baseline-ran ]; then while [ ! -e .git/go.flag ]; do sleep 0.05; done; fi\ntouch .baseline-ran\n" + BUGGY_ADD_REPO["test.sh"],
};

describe("patchgate run on a terminal: a sign of life", () => {
  const sessions = cliSessions();

  test("while the tests run, one status line says so and for how long", async () => {
    const { repo, data, env } = await sessions.start(
      [
        { toolCalls: [{ name: "submit_plan", arguments: { summary: "run the tests", steps: ["run them"] } }] },
        { toolCalls: [{ name: "run_tests", arguments: {} }] },
        { toolCalls: [{ name: "report_blocked", arguments: { reason: "only watching the heartbeat" } }] },
      ],
      { files: WAITING_REPO, prefix: "pg-heartbeat-", key: "sk-heartbeat-key" },
    );
    const cmd = `node '${await cliMain()}' run --repo ${repo} --approve-plan "Run the tests"`;
    const child = spawn("script", ["-qfec", cmd, "/dev/null"], { cwd: ROOT, env: { ...process.env, ...env, PATCHGATE_HEARTBEAT_MS: "100" } });
    let screen = "";
    let released = false;
    child.stdout.on("data", (b: Buffer) => {
      screen += b.toString();
      const session = /session (\S+)\r?\n/.exec(screen)?.[1];
      // eslint-disable-next-line no-control-regex -- the terminal's erase-line sequence is what is checked
      if (!released && session && /\r\x1b\[K… tests: sh test.sh \(\d+ s\)/.test(screen)) {
        released = true;
        writeFileSync(join(data, "workspaces", session, ".git", "go.flag"), "");
      }
    });
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect({ released, screen: released ? "" : screen }).toEqual({ released: true, screen: "" });
    expect(code).toBe(1);
    // The status line is cleared before the next line is printed: no event row starts on it.
    // eslint-disable-next-line no-control-regex -- as above
    expect(screen).toMatch(/\(\d+ s\)\r\x1b\[K/);
  }, 120_000);
});
