import { execFileSync } from "node:child_process";
import { mkdirSync, renameSync, rmSync, statSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ListingScan, type DirListing } from "../../src/workspace/dir-listings.js";
import { findSpecialFiles } from "../../src/workspace/tree-walk.js";
import { fifo } from "../fakes/special-files.js";
import { cleanupTempDirs, tempDir } from "./git-fixtures.js";

/**
 * The special-file walk remembers directory listings by stat. These scans run with a clock a minute
 * ahead, so every stamp counts as settled and everything that can be remembered is: only the stat
 * key stands between a change and a stale listing, which is the worst case for what is checked here.
 */
const LATER = () => Date.now() + 60_000;

function scan(root: string, rel: string, now = LATER()): Promise<DirListing> {
  const s = new ListingScan(root, now);
  return s.listing(rel).finally(() => s.end());
}

/** touch keeps every nanosecond (utimes from JS rounds them), so only ctime tells the change apart. */
function setMtimeNs(file: string, ns: bigint): void {
  const frac = String(ns % 1_000_000_000n).padStart(9, "0");
  execFileSync("touch", ["-m", "-d", `@${ns / 1_000_000_000n}.${frac}`, file]);
}

const names = (l: DirListing) => l.entries.map((e) => `${e.name}:${e.type}`);

describe("directory listings remembered by stat", () => {
  let root: string;
  beforeEach(() => {
    root = tempDir("pg-listings-");
    mkdirSync(join(root, "src", "deep"), { recursive: true });
    writeFileSync(join(root, "src", "a.txt"), "a\n");
  });
  afterAll(() => cleanupTempDirs());

  it("an unchanged directory is not read again; regular files and .git are not listed", async () => {
    mkdirSync(join(root, "src", ".git"));
    const first = await scan(root, "src");
    expect(names(first)).toEqual(["deep:dir"]);
    expect(await scan(root, "src")).toBe(first);
  });

  it("an entry added, renamed, removed or replaced in a remembered directory is seen by the next scan", async () => {
    await scan(root, "src");
    fifo(root, "src/pipe");
    expect(names(await scan(root, "src"))).toEqual(["deep:dir", "pipe:fifo"]);
    renameSync(join(root, "src", "pipe"), join(root, "src", ".gitignore"));
    const renamed = await scan(root, "src");
    expect(names(renamed)).toEqual([".gitignore:fifo", "deep:dir"]);
    expect(renamed.gitignoreIsFile).toBe(false);
    unlinkSync(join(root, "src", ".gitignore"));
    writeFileSync(join(root, "src", ".gitignore"), "x\n");
    expect((await scan(root, "src")).gitignoreIsFile).toBe(true);
    rmSync(join(root, "src", "deep"), { recursive: true });
    symlinkSync("/tmp", join(root, "src", "deep"));
    expect(names(await scan(root, "src"))).toEqual(["deep:symlink"]);
  });

  it("a directory's mtime set back after a change does not hide the change (ctime moves)", async () => {
    const dir = join(root, "src");
    const before = statSync(dir, { bigint: true });
    await scan(root, "src");
    fifo(root, "src/pipe");
    setMtimeNs(dir, before.mtimeNs);
    expect(statSync(dir, { bigint: true }).mtimeNs).toBe(before.mtimeNs);
    expect(names(await scan(root, "src"))).toContain("pipe:fifo");
  });

  it("a remembered file is parsed again when its bytes change, even at the same size and mtime", async () => {
    const file = join(root, "src", ".gitignore");
    writeFileSync(file, "aa\n");
    const parse = (now = LATER()) => {
      const s = new ListingScan(root, now);
      return s.file("src/.gitignore", (text) => ({ text })).finally(() => s.end());
    };
    const first = await parse();
    expect(await parse()).toBe(first);
    const st = statSync(file, { bigint: true });
    writeFileSync(file, "bb\n");
    setMtimeNs(file, st.mtimeNs);
    expect(statSync(file, { bigint: true }).mtimeNs).toBe(st.mtimeNs);
    expect(await parse()).toEqual({ text: "bb\n" });
    rmSync(file);
    mkdirSync(file);
    expect(await parse()).toBeNull();
  });

  it("a stamp whose tick is not over is not trusted: the directory is read again", async () => {
    const now = Date.now();
    mkdirSync(join(root, "fresh"));
    const first = await scan(root, "fresh", now);
    const second = await scan(root, "fresh", now);
    expect(second).toEqual(first);
    expect(second).not.toBe(first);
  });

  it("findSpecialFiles sees what changed between two walks of the same tree", async () => {
    writeFileSync(join(root, ".gitignore"), "build/\n");
    fifo(root, "build/pipe");
    expect(await findSpecialFiles(root)).toEqual([]);
    fifo(root, "src/deep/pipe");
    expect(await findSpecialFiles(root)).toEqual([{ rel: "src/deep/pipe", kind: "fifo", viaSymlink: false }]);
    writeFileSync(join(root, ".gitignore"), "src/\n");
    expect(await findSpecialFiles(root)).toEqual([{ rel: "build/pipe", kind: "fifo", viaSymlink: false }]);
  });
});
