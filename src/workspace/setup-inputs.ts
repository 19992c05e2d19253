import { INSTALL_SCRIPTS, isSetupInput, namedBySetup } from "../policy/setup-inputs.js";
import { git, gitOk } from "./git.js";

/**
 * How the setup inputs (policy/setup-inputs.ts) of the tree a session starts on compare with the
 * default branch's. The clone knows the default branch as `origin/HEAD` (git clone records the
 * remote's HEAD), also when the session was cloned at a PR branch or rebuilt at a commit.
 */
export type SetupInputsComparison =
  /** Equal: the setup is the maintainer's. */
  | { kind: "same"; defaultHead: string }
  /** These setup inputs differ from the default branch's. */
  | { kind: "changed"; defaultHead: string; paths: string[] }
  /** The clone has no default branch to compare with. */
  | { kind: "unknown" };

export async function compareSetupInputs(root: string, base: string, setupCommand: string, signal?: AbortSignal): Promise<SetupInputsComparison> {
  const r = await git(["rev-parse", "--verify", "--quiet", "refs/remotes/origin/HEAD^{commit}"], { cwd: root, signal });
  if (r.exitCode !== 0) return { kind: "unknown" };
  const defaultHead = r.stdout.trim();
  if (defaultHead === base) return { kind: "same", defaultHead };
  // Either side's install scripts may name a file: a changed one counts whichever side names it.
  const scripts = [...(await installScripts(root, base, signal)), ...(await installScripts(root, defaultHead, signal))];
  const named = namedBySetup(setupCommand, scripts);
  // Plumbing, no renames: every path that differs is listed under its own name, on both sides.
  const out = await gitOk(["diff-tree", "-r", "-z", "--name-only", "--no-renames", base, defaultHead, "--"], { cwd: root, signal });
  const paths = out
    .split("\0")
    .filter((p) => p !== "" && isSetupInput(p, named))
    .sort();
  return paths.length === 0 ? { kind: "same", defaultHead } : { kind: "changed", defaultHead, paths };
}

/** The install lifecycle scripts of the root package.json at `commit` (none when absent or unreadable). */
export async function installScripts(root: string, commit: string, signal?: AbortSignal): Promise<string[]> {
  const r = await git(["cat-file", "blob", `${commit}:package.json`], { cwd: root, signal });
  if (r.exitCode !== 0) return [];
  try {
    const scripts = (JSON.parse(r.stdout) as { scripts?: Record<string, unknown> }).scripts ?? {};
    return INSTALL_SCRIPTS.map((k) => scripts[k]).filter((v): v is string => typeof v === "string");
  } catch {
    return [];
  }
}
