import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { cliSessions } from "../helpers/cli-sessions.js";
import { cliMain } from "../helpers/compiled-app.js";
import { BUGGY_ADD_REPO } from "../helpers/git-fixture.js";
import { ROOT } from "../helpers/run-cli.js";

// The setup and the baseline test run each print a line, then wait until the test has seen the
// status line name them with that line and says go (a file appearing in the workspace): the status
// line is then checked while each really is running. The file goes in the clone's .git, which a run
// sees as it is (read-only); the rest of the workspace a run sees through its own layer.
const WAITING_REPO = {
  ...BUGGY_ADD_REPO,
  "setup.sh": "echo fetching dependency 1 of 3\nwhile [ ! -e .git/setup.go ]; do sleep 0.05; done\n",
  "test.sh": "echo running the baseline\nwhile [ ! -e .git/baseline.go ]; do sleep 0.05; done\n" + BUGGY_ADD_REPO["test.sh"],
  ".github/patchgate.yml": "setup: sh setup.sh\ntest: sh test.sh\n",
};

describe("patchgate run on a terminal: the status line follows setup and the baseline", () => {
  const sessions = cliSessions();

  test("what runs, for how long, and its last output line", async () => {
    const { repo, data, env } = await sessions.start(
      [
        { toolCalls: [{ name: "submit_plan", arguments: { summary: "look around", steps: ["look"] } }] },
        { toolCalls: [{ name: "report_blocked", arguments: { reason: "only watching the status line" } }] },
      ],
      { files: WAITING_REPO, prefix: "pg-progress-", key: "sk-progress-key" },
    );
    // Wide enough that the status line is not cut to the terminal's width.
    const cmd = `stty cols 200; node '${await cliMain()}' run --repo ${repo} --approve-plan "Look around"`;
    const child = spawn("script", ["-qfec", cmd, "/dev/null"], { cwd: ROOT, env: { ...process.env, ...env, PATCHGATE_HEARTBEAT_MS: "100" } });
    // eslint-disable-next-line no-control-regex -- the terminal's erase-line sequence is what is checked
    const setupLine = /\r\x1b\[K… setup: sh setup\.sh, with network \(package registries only\) \(\d+ s\) │ fetching dependency 1 of 3/;
    // eslint-disable-next-line no-control-regex -- as above
    const baselineLine = /\r\x1b\[K… baseline tests: sh test\.sh \(\d+ s\) │ running the baseline/;
    const released: string[] = [];
    let screen = "";
    child.stdout.on("data", (b: Buffer) => {
      screen += b.toString();
      const session = /session (\S+)\r?\n/.exec(screen)?.[1];
      if (!session) return;
      const release = (name: string, seen: RegExp) => {
        if (released.includes(name) || !seen.test(screen)) return;
        released.push(name);
        writeFileSync(join(data, "workspaces", session, ".git", `${name}.go`), "");
      };
      release("setup", setupLine);
      release("baseline", baselineLine);
    });
    // A status line never seen leaves the setup waiting: the run is ended, and the screen shows why.
    const giveUp = setTimeout(() => child.kill(), 90_000);
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    clearTimeout(giveUp);
    expect({ released, screen: released.length === 2 ? "" : screen }).toEqual({ released: ["setup", "baseline"], screen: "" });
    expect(code).toBe(1);
    expect(screen).toContain("  ▶ setup: sh setup.sh, with network (package registries only)\r\n");
    expect(screen).toMatch(/ {2}■ setup ended after \d+\.\d s, 1 line of output\r\n/);
  }, 120_000);
});
