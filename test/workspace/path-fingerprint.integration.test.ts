import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathsFingerprint } from "../../src/workspace/path-fingerprint.js";

describe("pathsFingerprint: what git would stage, from the bytes", () => {
  let root: string;
  const print = async (rel: string) => (await pathsFingerprint(root, [rel])).byPath.get(rel);
  const write = (rel: string, bytes: string | Buffer) => {
    mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    writeFileSync(path.join(root, rel), bytes);
  };

  beforeEach(() => {
    root = mkdtempSync(path.join(tmpdir(), "pg-fp-"));
    mkdirSync(path.join(root, ".git"));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  test("a rewrite of the same size under the same mtime still changes it; the same bytes again give the same print", async () => {
    write("a.txt", "one\n");
    const { mtime } = statSync(path.join(root, "a.txt"));
    const first = await print("a.txt");
    write("a.txt", "two\n");
    utimesSync(path.join(root, "a.txt"), mtime, mtime);
    const second = await print("a.txt");
    expect(second).not.toBe(first);
    write("a.txt", "one\n");
    expect(await print("a.txt")).toBe(first);
  });

  test("a file larger than the synchronous read limit is read whole: one byte at its end changes the print", async () => {
    const big = Buffer.alloc(3 << 20, 0x61);
    write("big.bin", big);
    const before = await print("big.bin");
    big[big.length - 1] = 0x62;
    write("big.bin", big);
    const after = await print("big.bin");
    expect(before).toMatch(/^file:-:[0-9a-f]{64}$/);
    expect(after).toMatch(/^file:-:[0-9a-f]{64}$/);
    expect(after).not.toBe(before);
  });

  test("the executable bit, a symlink, a FIFO, a path through a linked directory and a missing path each print as git sees them", async () => {
    write("run.sh", "echo\n");
    const plain = await print("run.sh");
    chmodSync(path.join(root, "run.sh"), 0o755);
    expect(await print("run.sh")).toBe(plain!.replace("file:-:", "file:x:"));
    symlinkSync("run.sh", path.join(root, "link"));
    expect(await print("link")).toMatch(/^link:[0-9a-f]{64}$/);
    execFileSync("mkfifo", [path.join(root, "pipe")]);
    // Never opened for reading in a way that waits for a writer.
    expect(await print("pipe")).toBe("other");
    mkdirSync(path.join(root, "real"));
    write("real/f.txt", "x\n");
    symlinkSync("real", path.join(root, "via"));
    expect(await print("via/f.txt")).toBe("other");
    expect(await print("gone/f.txt")).toBe("absent");
    mkdirSync(path.join(root, "dir"));
    expect(await print("dir")).toBe("other");
  });

  test("an attributes file on the path's way changes the context, one elsewhere does not", async () => {
    write("src/lib/a.txt", "a\n");
    const context = async () => (await pathsFingerprint(root, ["src/lib/a.txt"])).context;
    const before = await context();
    write("other/.gitattributes", "* binary\n");
    expect(await context()).toBe(before);
    write("src/.gitattributes", "* binary\n");
    const withAttributes = await context();
    expect(withAttributes).not.toBe(before);
    write(".git/config", "[core]\n\tfilemode = false\n");
    expect(await context()).not.toBe(withAttributes);
  });
});
