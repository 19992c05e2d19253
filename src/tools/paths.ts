import { lstat, realpath } from "node:fs/promises";
import path from "node:path";
import { isProtectedPath, resolveInWorkspace } from "../policy/index.js";
import type { ToolError } from "../session/types.js";
import type { ToolContext } from "./tool.js";

/**
 * Path handling shared by the file tools. The policy module decides confinement; this file adds the
 * tool-side view: the canonical path (symlinks inside the workspace collapsed, so reading `link` and
 * writing its target share one edit context) and the protected-path check against that real path.
 */
export type ToolPath = { ok: true; abs: string; rel: string; root: string } | { ok: false; error: ToolError };

/** The lexical form the policy sees in a request (`request()` is synchronous, so no realpath). */
export function lexicalRel(p: string): string {
  const n = path.posix.normalize(p).replace(/^(\.\/)+/, "").replace(/\/+$/, "");
  return n === "." ? "" : n;
}

function denied(rel: string, message: string): ToolPath {
  return { ok: false, error: { code: "path_denied", message, details: { path: rel } } };
}

/** realpath of `abs`, or of its deepest existing ancestor with the missing tail appended. */
async function realpathOfTarget(abs: string): Promise<string | null> {
  const tail: string[] = [];
  let current = abs;
  for (;;) {
    try {
      return path.join(await realpath(current), ...tail.reverse());
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
      // A dangling symlink: writing through it would create its target; refuse instead of guessing.
      if ((await lstat(current).catch(() => null))?.isSymbolicLink()) return null;
      tail.push(path.basename(current));
      current = path.dirname(current);
    }
  }
}

/** Confine `p` to the workspace; `rel` is canonical ("." for the root), `root` the workspace's realpath. */
export async function resolveToolPath(ctx: ToolContext, p: string): Promise<ToolPath> {
  const resolved = await resolveInWorkspace(ctx.workspace.root, p);
  if (!resolved.ok) return resolved;
  const realRoot = await realpath(ctx.workspace.root);
  let real: string | null;
  try {
    real = await realpathOfTarget(resolved.abs);
  } catch (err) {
    return denied(resolved.rel, `${resolved.rel} cannot be resolved (${(err as NodeJS.ErrnoException).code ?? "error"}).`);
  }
  if (real === null) return denied(resolved.rel, `${resolved.rel} is a symlink whose target does not exist; use a real file path.`);
  const rel = path.relative(realRoot, real).split(path.sep).join("/");
  return { ok: true, abs: real, rel: rel === "" ? "." : rel, root: realRoot };
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
