import { lstat, readlink, realpath } from "node:fs/promises";
import path from "node:path";
import picomatch from "picomatch";
import type { ToolError } from "../session/types.js";

/**
 * Gate 5 (DESIGN §3): every path the model names must stay inside the workspace. The model's text is
 * never trusted: we refuse shapes that are ambiguous on their face (absolute, `..`, NUL) before
 * touching the disk, then compare realpaths so a symlink planted in the repo cannot lead out.
 */
export type ResolvedPath = { ok: true; abs: string; rel: string } | { ok: false; error: ToolError };

function denied(relPath: string, why: string): { ok: false; error: ToolError } {
  return { ok: false, error: { code: "path_denied", message: `path ${JSON.stringify(relPath)} refused: ${why}`, details: { path: relPath } } };
}

function isInside(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  // `..foo` is a legal name inside; only `..` itself or `../…` leaves.
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}

/**
 * realpath of the deepest ancestor that exists, with the missing tail appended: a file the agent is
 * about to create (maybe in a new directory) resolves to where it would land. A dangling symlink is
 * resolved through its target text, so `ln -s /etc/x new` cannot be used to create files outside;
 * `viaDanglingLink` says one was followed (the tools refuse to write through such a link).
 */
async function realpathAllowingMissing(abs: string, depth = 0): Promise<{ real: string; viaDanglingLink: boolean }> {
  if (depth > 40) throw Object.assign(new Error("too many symlinks"), { code: "ELOOP" });
  const missing: string[] = [];
  let current = abs;
  for (;;) {
    try {
      return { real: path.join(await realpath(current), ...missing.reverse()), viaDanglingLink: depth > 0 };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
      const link = await lstat(current).catch(() => null);
      if (link?.isSymbolicLink()) {
        // Dangling link: pretend it resolves to its target path so the containment check sees it.
        const target = path.resolve(path.dirname(current), await readlink(current));
        return realpathAllowingMissing(path.join(target, ...missing.reverse()), depth + 1);
      }
      const parent = path.dirname(current);
      if (parent === current) return { real: path.join(current, ...missing.reverse()), viaDanglingLink: depth > 0 };
      missing.push(path.basename(current));
      current = parent;
    }
  }
}

/** What confinement learned on the way: the lexical path, and where it really leads. */
export type ConfinedPath = { ok: true; abs: string; rel: string; realRoot: string; real: string; viaDanglingLink: boolean } | { ok: false; error: ToolError };

export async function confineInWorkspace(root: string, relPath: string): Promise<ConfinedPath> {
  if (relPath.length === 0 || relPath.trim().length === 0) return denied(relPath, "the path is empty; give a path relative to the repository root");
  if (relPath.includes("\0")) return denied(relPath, "the path contains a NUL byte");
  if (path.posix.isAbsolute(relPath) || path.win32.isAbsolute(relPath)) {
    return denied(relPath, "absolute paths are not allowed; give a path relative to the repository root");
  }
  // Backslashes are treated as separators too, so `..\\x` cannot slip past the segment check.
  const segments = relPath.split(/[\\/]+/);
  if (segments.includes("..")) return denied(relPath, "`..` segments are not allowed; give a path inside the repository");

  const rel = path.posix.normalize(segments.filter((s) => s !== "" && s !== ".").join("/") || ".");
  let realRoot: string;
  try {
    realRoot = await realpath(root);
  } catch {
    return denied(relPath, "the workspace does not exist");
  }
  let target: { real: string; viaDanglingLink: boolean };
  try {
    target = await realpathAllowingMissing(path.join(realRoot, rel));
  } catch (err) {
    return denied(relPath, `it cannot be resolved (${(err as NodeJS.ErrnoException).code ?? "error"})`);
  }
  if (!isInside(realRoot, target.real)) return denied(relPath, "it resolves (through a symlink) to a location outside the workspace");
  return { ok: true, abs: path.join(realRoot, rel), rel, realRoot, ...target };
}

/** Confinement as the policy needs it: the normalised lexical path and its absolute form. */
export async function resolveInWorkspace(root: string, relPath: string): Promise<ResolvedPath> {
  const c = await confineInWorkspace(root, relPath);
  return c.ok ? { ok: true, abs: c.abs, rel: c.rel } : c;
}

/**
 * Always protected: git internals, CI definitions (they run with repo secrets) and our own config.
 * A `.git` at any depth: it turns its directory into a nested repository, which git commits as a
 * gitlink instead of the files the tests ran on, and whose config a `git status` run there obeys.
 */
export const PROTECTED_PATH_GLOBS: readonly string[] = [
  ".git",
  ".git/**",
  "**/.git",
  "**/.git/**",
  ".github/workflows/**",
  // Composite actions run inside the workflows that use them; git hooks installed by husky run on
  // every maintainer's commit.
  ".github/actions/**",
  ".husky/**",
  ".gitmodules",
  ".github/patchgate.yml",
  // Editor and agent configs run code on the maintainer's machine: VS Code tasks and launch
  // configurations, Claude Code hooks and commands, MCP client configs (Patchgate never reads those:
  // servers are the operator's, but other tools do).
  ".vscode/**",
  ".claude/**",
  "**/.mcp.json",
  ".cursor/mcp.json",
  ".gemini/settings.json",
];

/** The first glob that protects `rel` (workspace-relative POSIX path), or null when it may be written. */
export function isProtectedPath(rel: string, extra: string[] = []): string | null {
  const normalised = path.posix.normalize(rel.replace(/\\/g, "/")).replace(/^\.\//, "").replace(/\/+$/, "");
  for (const glob of [...PROTECTED_PATH_GLOBS, ...extra]) {
    // nocase: a case-insensitive filesystem (macOS checkout) would map `.GIT/hooks` onto `.git/hooks`.
    if (picomatch.isMatch(normalised, glob, { dot: true, nocase: true })) return glob;
  }
  return null;
}
