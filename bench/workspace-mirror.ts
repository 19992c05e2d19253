/**
 * A second session's workspace on a large repository (bench/large-repo.ts, generated here, served
 * over file:// so git uses its transport as with a remote): cloneWorkspace with the repository's
 * mirror (fetch into the mirror, `clone --reference --dissociate`: the objects copied into the
 * workspace, which keeps no link to the mirror; checkout) against `git worktree add` of the
 * same commit from the mirror, the floor for a checkout of that tree. Interleaved; the first session
 * (which creates the mirror) is not timed. Run alone: `npx tsx bench/workspace-mirror.ts`.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { cloneWorkspace } from "../src/workspace/clone.js";
import { mirrorPath } from "../src/workspace/mirror.js";
import { figure, interleaved } from "./ab.js";
import type { FigureResult } from "./figure.js";
import { FILES, gitIn, makeLargeRepo } from "./large-repo.js";

const ROUNDS = 7;
const GOAL = 1.5;
const run = promisify(execFile);

export async function benchWorkspaceMirror(): Promise<Record<string, FigureResult>> {
  const root = mkdtempSync(path.join(os.tmpdir(), "pg-bench-mirror-"));
  try {
    const bytes = makeLargeRepo(path.join(root, "src"));
    gitIn(root, ["clone", "--quiet", "--bare", path.join(root, "src"), path.join(root, "remote.git")]);
    const url = pathToFileURL(path.join(root, "remote.git")).href;
    const mirror = { settings: { root: path.join(root, "mirrors") }, tenant: { installationId: 1, repoId: 1 } };
    const first = await cloneWorkspace({ source: url, dir: path.join(root, "first"), mirror });
    const mirrorDir = mirrorPath(mirror.settings.root, mirror.tenant);
    let n = 0;
    const target = () => path.join(root, `ws-${n}`);
    const t = await interleaved(
      ROUNDS,
      () => cloneWorkspace({ source: url, dir: target(), mirror }),
      () => run("git", ["-c", "core.hooksPath=/dev/null", "worktree", "add", "--quiet", "--detach", target(), first.baseCommit], { cwd: mirrorDir }),
      async () => {
        rmSync(target(), { recursive: true, force: true });
        await run("git", ["worktree", "prune"], { cwd: mirrorDir });
        n++;
      },
    );
    const note = `${FILES} files, ${Math.round(bytes / 1e6)} MB over file://, ${ROUNDS} rounds`;
    return { workspace_second_session: figure(t, { a: "second session's clone (mirror)", b: "git worktree add", goal: GOAL, note }) };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) console.log(JSON.stringify(await benchWorkspaceMirror(), null, 2));
