import { spawn } from "node:child_process";
import { join } from "node:path";
import { cliSessions } from "../helpers/cli-sessions.js";
import { cliMain } from "../helpers/compiled-app.js";

const ROOT = join(import.meta.dirname, "../..");
const plan = (summary: string) => ({ toolCalls: [{ name: "submit_plan", arguments: { summary, steps: ["fix the operator"] } }] });

/**
 * The approvals a person types: the real CLI under a pseudo-terminal (`script` gives it a TTY), and
 * answers typed when each prompt appears on the screen — never on a timer.
 */
describe("patchgate run at a terminal", () => {
  const sessions = cliSessions();

  test("feedback at the plan prompt revises the plan; y approves it and then the writes", async () => {
    const { repo, data, server } = await sessions.start(
      [
        plan("first draft"),
        (req) => {
          const feedback = req.messages.filter((m) => m.role === "user").at(-1);
          return plan(feedback?.content.includes("mention the test") ? "revised: fix and mention the test" : "feedback lost");
        },
        { toolCalls: [{ name: "read_file", arguments: { path: "src/add.js" } }] },
        { toolCalls: [{ name: "edit_file", arguments: { path: "src/add.js", edits: [{ search: "a - b", replace: "a + b" }] } }] },
        { toolCalls: [{ name: "run_tests", arguments: {} }] },
        { toolCalls: [{ name: "finish", arguments: { summary: "fixed" } }] },
      ],
      { prefix: "pg-tty-" },
    );
    const cmd = `node '${await cliMain()}' run --repo ${repo} "Fix add"`;
    const child = spawn("script", ["-qfec", cmd, "/dev/null"], {
      cwd: ROOT,
      env: { ...process.env, OPENAI_API_KEY: "sk-tty-test-key", OPENAI_BASE_URL: server.baseURL, PATCHGATE_DATA_DIR: data },
    });
    const answers: [string, string][] = [
      ["Approve this plan?", "please mention the test\n"],
      ["Approve this plan?", "y\n"],
      ["Allow these changes?", "y\n"],
    ];
    let screen = "";
    const answered = new Map<string, number>();
    child.stdout.on("data", (b: Buffer) => {
      screen += b.toString();
      const next = answers[0];
      if (!next) return;
      // Answer a prompt once per time it has appeared on the screen.
      const shown = screen.split(next[0]).length - 1;
      if (shown > (answered.get(next[0]) ?? 0)) {
        answered.set(next[0], (answered.get(next[0]) ?? 0) + 1);
        child.stdin.write(answers.shift()![1]);
      }
    });
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));

    expect(answers).toEqual([]);
    expect(code).toBe(0);
    expect(screen).toContain("revised: fix and mention the test");
    expect(screen).toContain("plan_revision_requested");
    expect(screen).toMatch(/done: branch patchgate\//);
  });
});
