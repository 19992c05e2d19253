import { writeFile } from "node:fs/promises";
import { resolve } from "node:path";
import { gitOk } from "../workspace/git.js";
import type { LocalDriveResult } from "./drive-locally.js";

export interface ReportInput {
  sessionId: string;
  /** The session's clone, where the result branch lives. */
  root: string;
  baseCommit: string;
  stat: string;
  /** `--out`: where to write the result as a patch (`git am` applies it). */
  patchOut?: string;
}

/**
 * The last lines of a run: where the result is and the exact command that brings it into the
 * user's repository (the branch lives in a clone under the data dir, which nobody would find).
 */
export async function report(result: LocalDriveResult, r: ReportInput, out: NodeJS.WritableStream): Promise<number> {
  if (result.kind === "done") {
    out.write(`\ndone: branch ${result.branch} at ${result.commit.slice(0, 12)} in ${r.root}\n${r.stat}\n`);
    out.write(`fetch it into your repository with:\n  ${fetchCommand(r.root, result.branch)}\n`);
    // The receipt is a note in the clone; merging keeps the notes the repository already has.
    out.write(
      `and its signed receipt (check it with patchgate verify ${result.branch}):\n  git fetch ${r.root} refs/notes/patchgate && git notes --ref=patchgate merge FETCH_HEAD\n`,
    );
    if (r.patchOut) {
      const patch = await gitOk(["format-patch", "--stdout", `${r.baseCommit}..${result.commit}`], { cwd: r.root });
      await writeFile(resolve(r.patchOut), patch);
      out.write(`patch written to ${resolve(r.patchOut)} (apply with: git am ${resolve(r.patchOut)})\n`);
    }
    return 0;
  }
  if (result.kind === "parked") {
    out.write(`\nsession ${r.sessionId} is waiting for approval; continue with: patchgate resume ${r.sessionId} --approve-plan --approve-writes\n`);
    return 3;
  }
  if (result.kind === "blocked") {
    out.write(`\nblocked: ${result.message}\n`);
    const w = result.work;
    if (w?.pushed)
      out.write(
        `the work so far, untested, is on branch ${w.branch} at ${w.commit.slice(0, 12)} in ${r.root}; fetch it with:\n  ${fetchCommand(r.root, w.branch)}\n`,
      );
    else if (w) out.write(`the work so far was not kept on a branch: ${w.why}\n`);
  }
  out.write(`\nsession ${r.sessionId} ${result.kind}; see: patchgate show ${r.sessionId}\n`);
  return 1;
}

/** Fetches into a branch of the same name: a bare `git fetch <path> <branch>` would only fill FETCH_HEAD. */
function fetchCommand(clone: string, branch: string): string {
  return `git fetch ${clone} ${branch}:${branch}`;
}
