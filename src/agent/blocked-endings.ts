import type { Ledger } from "../store/ledger.js";
import type { ResumeOutcome } from "./outcome.js";
import type { ResumeOptions } from "./runtime-options.js";

/**
 * A session without a test command can never pass the test gate: it ends `blocked` before the first
 * model call, so the maintainer learns it before reviewing a plan. Returns true when it did.
 */
export async function blockWithoutTestCommand(ledger: Ledger, opts: ResumeOptions): Promise<boolean> {
  const s = ledger.state;
  if (s.step > 0 || (s.settings.testCommand ?? opts.repoConfig.test) !== undefined) return false;
  await ledger.append({
    type: "session_blocked",
    reason: "no_test_command",
    message:
      "No test command was found: `.github/patchgate.yml` names none (`test:`), and none was detected (package.json scripts.test, pytest, go.mod, Cargo.toml, a Makefile `test:` target). " +
      "Without one no change can pass the test gate. Add `test: <command>` to .github/patchgate.yml on the default branch, then start again.",
  });
  return true;
}

/**
 * The agent's report_blocked, once every call of its turn has an answer: the session ends `blocked`.
 * With work written in execute mode and a caller that keeps it, the session stays live until that
 * caller has pushed the work (so a crash in between resumes here and pushes it once).
 */
export async function endIfBlockReported(ledger: Ledger, opts: Pick<ResumeOptions, "keepBlockedWork">): Promise<ResumeOutcome | null> {
  const s = ledger.state;
  if (s.blockReport === null || s.openCalls.length > 0 || (s.phase !== "planning" && s.phase !== "executing")) return null;
  if (opts.keepBlockedWork && s.phase === "executing" && s.publishablePaths.length > 0) return { kind: "keep_blocked_work" };
  await ledger.append({ type: "session_blocked", reason: "reported_by_agent", message: s.blockReport });
  return null;
}
