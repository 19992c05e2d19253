import { mkdirSync, symlinkSync, writeFileSync, chmodSync } from "node:fs";
import { join } from "node:path";
import { hasRealGit, nodePrefix, which } from "../../src/sandbox/host-layout.js";
import { tempWorkspace } from "./sandbox-fixture.js";

describe("host layout", () => {
  const tmp = tempWorkspace("pg-layout-");
  afterAll(() => tmp.cleanup());

  test("a node under /usr needs no extra bind; one elsewhere (nvm, /opt) binds its prefix, through symlinks", async () => {
    expect(await nodePrefix("/usr/bin/node")).toBeNull();
    const prefix = join(tmp.dir, "opt", "node-v20");
    mkdirSync(join(prefix, "bin"), { recursive: true });
    writeFileSync(join(prefix, "bin", "node"), "");
    symlinkSync(join(prefix, "bin", "node"), join(tmp.dir, "node-link"));
    expect(await nodePrefix(join(tmp.dir, "node-link"))).toBe(prefix);
  });

  test(".git is re-bound when it is a directory or a gitfile, never when it is a symlink or absent", async () => {
    const cases: Record<string, (dir: string) => void> = {
      dir: (d) => mkdirSync(join(d, ".git")),
      gitfile: (d) => writeFileSync(join(d, ".git"), "gitdir: /elsewhere\n"),
      symlink: (d) => symlinkSync(tmp.dir, join(d, ".git")),
      absent: () => undefined,
    };
    const seen: Record<string, boolean> = {};
    for (const [name, make] of Object.entries(cases)) {
      const d = join(tmp.dir, `ws-${name}`);
      mkdirSync(d);
      make(d);
      seen[name] = await hasRealGit(d);
    }
    expect(seen).toEqual({ dir: true, gitfile: true, symlink: false, absent: false });
  });

  test("which finds executables on the given PATH only", async () => {
    const bin = join(tmp.dir, "bin");
    mkdirSync(bin);
    writeFileSync(join(bin, "tool"), "#!/bin/sh\n");
    chmodSync(join(bin, "tool"), 0o755);
    writeFileSync(join(bin, "not-exec"), "");
    expect(await which("tool", `relative/dir:${bin}`)).toBe(join(bin, "tool"));
    expect(await which("not-exec", bin)).toBeNull();
    expect(await which(join(bin, "tool"), "")).toBe(join(bin, "tool"));
  });
});
