import { renderRuntimeContext } from "../../../src/agent/context/runtime-context.js";
import { fold } from "../../../src/session/reducer.js";
import { type SessionEvent } from "../../../src/session/events.js";

const START: SessionEvent[] = [
  {
    type: "session_created",
    sessionId: "s",
    task: { title: "t", body: "b", source: { kind: "cli", repo: "r" } },
    model: "m",
    settings: { maxStepsPerResume: 5, limits: {} },
  },
  { type: "workspace_prepared", baseCommit: "c0ffee", workdir: "/w" },
];
const setup = (exitCode: number | null, durationMs: number, summary: string): SessionEvent => ({
  type: "setup_run",
  command: "npm ci",
  exitCode,
  durationMs,
  network: false,
  summary,
  inputDigest: "d",
});

describe("the model sees the setup in its runtime context", () => {
  test("nothing before a setup ran", () => expect(renderRuntimeContext(fold(START))).not.toContain("setup:"));

  test("a pass, with its time", () =>
    expect(renderRuntimeContext(fold([...START, setup(0, 12_400, "exit code 0")]))).toContain("setup: `npm ci` passed in 12 s\n"));

  test("a failure, with its last lines and that it is not run again", () => {
    const text = renderRuntimeContext(fold([...START, setup(1, 3_210, "exit code 1\nlast lines:\nnpm ERR! 404 left-pad")]));
    expect(text).toContain(
      "setup: `npm ci` failed (exit 1) after 3.2 s. It is not run again until its inputs (manifests, lockfiles, the files it names) change, or the user runs `patchgate retry s`.\n  exit code 1\n  last lines:\n  npm ERR! 404 left-pad",
    );
    // The retry named is the one that exists where the session runs: on GitHub, the comment.
    const onGitHub = START.map((e) => (e.type === "session_created" ? { ...e, task: { ...e.task, source: { kind: "github" as const, repo: "o/r" } } } : e));
    expect(renderRuntimeContext(fold([...onGitHub, setup(1, 3_210, "exit code 1")]))).toContain("change, or a maintainer comments `/agent retry`.");
  });

  test("a retry request forgets it", () => {
    expect(renderRuntimeContext(fold([...START, setup(1, 10, "x"), { type: "setup_retry_requested", by: "m" }]))).not.toContain("setup:");
  });
});
