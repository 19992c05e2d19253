import { lstat, readFile, writeFile } from "node:fs/promises";
import path from "node:path";

/**
 * What a session's runs have left in its workspace, net (bytes of files kept less those they replaced
 * or deleted), so that output in ignored paths, which no rollback removes (setup's, an approved
 * command's), cannot pile up run after run beyond the disk limit. Kept in the workspace's own `.git`
 * directory, which every run sees read-only and whose writes are never kept, so that it outlives one
 * resume's sandbox and goes with the workspace; a workspace without a `.git` directory keeps it in
 * memory only.
 */
const FILE = "patchgate-disk-kept";

export class DiskBudget {
  private readonly inMemory = new Map<string, number>();

  /** What a run on `workspace` may still add, of `limitBytes`. */
  async left(workspace: string, limitBytes: number): Promise<number> {
    return Math.max(0, limitBytes - (await this.kept(workspace)));
  }

  /** Counts what a run added (negative when it removed more than it wrote). */
  async record(workspace: string, addedBytes: number): Promise<void> {
    if (addedBytes === 0) return;
    const kept = Math.max(0, (await this.kept(workspace)) + addedBytes);
    const file = await this.file(workspace);
    if (file === null) this.inMemory.set(workspace, kept);
    else await writeFile(file, `${kept}\n`);
  }

  private async kept(workspace: string): Promise<number> {
    const file = await this.file(workspace);
    if (file === null) return this.inMemory.get(workspace) ?? 0;
    const n = Number((await readFile(file, "utf8").catch(() => "0")).trim());
    return Number.isSafeInteger(n) && n >= 0 ? n : 0;
  }

  private async file(workspace: string): Promise<string | null> {
    const git = path.join(workspace, ".git");
    const st = await lstat(git).catch(() => null);
    return st?.isDirectory() ? path.join(git, FILE) : null;
  }
}
