import { lstat, readdir } from "node:fs/promises";
import path from "node:path";
import type { MergePlan, Step } from "./overlay-merge.js";

type IgnoredAmong = (rels: readonly string[]) => Promise<Set<string>>;

/**
 * The plan without what it would write at the paths `ignoredAmong` names (a directory is asked for as
 * `rel/`) or below them: a run's creations, changes and deletions where git ignores them are not kept.
 * Nor is a deletion or replacement of a directory that holds ignored entries: it would take them with
 * it (the directory's other files are rollback's to judge). A plan that cannot be judged keeps
 * nothing. Bytes are counted again for the steps left.
 */
export async function withoutIgnored(plan: MergePlan, workspace: string, ignoredAmong: IgnoredAmong): Promise<MergePlan> {
  const steps = await keptSteps(plan.steps, workspace, ignoredAmong).catch(() => null);
  if (steps === null) return { steps: [], bytes: 0, replaced: 0, dropped: plan.dropped };
  const inodes = new Set<number>();
  let bytes = 0;
  for (const s of steps) {
    if (s.op !== "file" || inodes.has(s.ino)) continue;
    inodes.add(s.ino);
    bytes += s.size;
  }
  return { steps, bytes, replaced: steps.reduce((n, s) => n + s.replaces, 0), dropped: plan.dropped };
}

async function keptSteps(all: Step[], workspace: string, ignoredAmong: IgnoredAmong): Promise<Step[]> {
  const asked = all.map((s) => (s.op === "dir" ? `${s.rel}/` : s.rel));
  const ignored = await ignoredAmong(asked);
  const gone = new Set(all.filter((_, i) => ignored.has(asked[i])).map((s) => s.rel));
  const below = (rel: string): boolean => {
    for (let at = rel.length; at > 0; at = rel.lastIndexOf("/", at - 1)) if (gone.has(rel.slice(0, at))) return true;
    return false;
  };
  const kept: Step[] = [];
  for (const s of all) {
    if (below(s.rel)) continue;
    // A removal, or a file or link where a directory was, takes that directory away; a directory over one keeps it.
    if (s.op !== "dir" && (await holdsIgnored(workspace, s.rel, ignoredAmong))) continue;
    kept.push(s);
  }
  return kept;
}

/** Whether the workspace's directory `rel` holds an entry git ignores: asked level by level, and a file never holds one. */
async function holdsIgnored(workspace: string, rel: string, ignoredAmong: IgnoredAmong): Promise<boolean> {
  const st = await lstat(path.join(workspace, rel)).catch(() => null);
  let level = st?.isDirectory() ? [rel] : [];
  while (level.length > 0) {
    const entries: { rel: string; dir: boolean }[] = [];
    for (const dir of level)
      for (const e of await readdir(path.join(workspace, dir), { withFileTypes: true })) entries.push({ rel: path.join(dir, e.name), dir: e.isDirectory() });
    const asked = entries.map((e) => (e.dir ? `${e.rel}/` : e.rel));
    const ignored = await ignoredAmong(asked);
    if (asked.some((a) => ignored.has(a))) return true;
    level = entries.filter((e) => e.dir).map((e) => e.rel);
  }
  return false;
}
