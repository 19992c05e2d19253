import path from "node:path";
import { confineInWorkspace, isProtectedPath } from "../../policy/path-confinement.js";
import type { ToolError } from "../../session/types.js";
import type { ToolContext } from "../tool.js";

/**
 * Path handling shared by the file tools. The policy module decides confinement; this file adds the
 * tool-side view: the canonical path (symlinks inside the workspace collapsed, so reading `link` and
 * writing its target share one edit context) and the protected-path check against that real path.
 */
export type ToolPath = { ok: true; abs: string; rel: string; root: string } | { ok: false; error: ToolError };

/** The lexical form the policy sees in a request (`request()` is synchronous, so no realpath). */
export function lexicalRel(p: string): string {
  const n = path.posix
    .normalize(p)
    .replace(/^(\.\/)+/, "")
    .replace(/\/+$/, "");
  return n === "." ? "" : n;
}

function denied(rel: string, message: string): ToolPath {
  return { ok: false, error: { code: "path_denied", message, details: { path: rel } } };
}

/** Confine `p` to the workspace; `rel` is canonical ("." for the root), `root` the workspace's realpath. */
async function resolveToolPath(ctx: ToolContext, p: string): Promise<ToolPath> {
  // Confinement already walked to the real target; the tools only add their own refusal of dangling links.
  const c = await confineInWorkspace(ctx.workspace.root, p);
  if (!c.ok) return c;
  if (c.viaDanglingLink) return denied(c.rel, `${c.rel} is a symlink whose target does not exist; use a real file path.`);
  const rel = path.relative(c.realRoot, c.real).split(path.sep).join("/");
  return { ok: true, abs: c.real, rel: rel === "" ? "." : rel, root: c.realRoot };
}

/** Reads may go anywhere in the workspace except git's own directory (internals, our markers). */
export async function resolveForRead(ctx: ToolContext, p: string): Promise<ToolPath> {
  const r = await resolveToolPath(ctx, p);
  if (r.ok && r.rel.split("/").includes(".git")) {
    return denied(r.rel, `${r.rel} is inside .git, which the agent may not access; only the repository's files are readable.`);
  }
  return r;
}

/** Writes are refused on protected paths, judged on both the given and the real path. */
export async function resolveForWrite(ctx: ToolContext, p: string): Promise<ToolPath> {
  const r = await resolveToolPath(ctx, p);
  if (!r.ok) return r;
  if (r.rel === ".") return denied(r.rel, "the repository root is not a file; give a file path.");
  const extra = ctx.repoConfig.policy.protected_paths;
  for (const candidate of [lexicalRel(p), r.rel]) {
    const glob = isProtectedPath(candidate, extra);
    if (glob !== null) {
      return denied(candidate, `${candidate} is a protected path (matches \`${glob}\`); the agent may never write it.`);
    }
  }
  return r;
}
