import { mkdirSync, symlinkSync, writeFileSync, chmodSync } from "node:fs";
import { join } from "node:path";
import { detectNodeLayout, hasRealGit } from "../../src/sandbox/host-layout.js";
import { which } from "../../src/toolchain/layouts/fs.js";
import { tempWorkspace } from "./sandbox-fixture.js";

describe("host layout", () => {
  const tmp = tempWorkspace("pg-layout-");
  afterAll(() => tmp.cleanup());

  test("a node under /usr needs no binding; one elsewhere is found through symlinks, with only its own files", async () => {
    expect(await detectNodeLayout("/usr/bin/node")).toBeNull();
    const prefix = join(tmp.dir, "opt", "node-v20");
    mkdirSync(join(prefix, "bin"), { recursive: true });
    mkdirSync(join(prefix, "lib", "node_modules", "corepack", "dist"), { recursive: true });
    writeFileSync(join(prefix, "bin", "node"), "");
    symlinkSync("../lib/node_modules/corepack/dist/corepack.js", join(prefix, "bin", "corepack"));
    // Not bundled with node, or not pointing into its prefix: not bound.
    symlinkSync("../lib/node_modules/typescript/bin/tsc", join(prefix, "bin", "tsc"));
    symlinkSync("/etc/passwd", join(prefix, "bin", "npm"));
    symlinkSync(join(prefix, "bin", "node"), join(tmp.dir, "node-link"));
    const maps = [
      `7f00-7f01 r-xp 00000000 fd:00 1 ${prefix}/lib/libnode.so.115`,
      "7f01-7f02 r-xp 00000000 fd:00 2 /usr/lib/x86_64-linux-gnu/libc.so.6",
      "7f02-7f03 r-xp 00000000 fd:00 3 /srv/app/node_modules/better-sqlite3/build/Release/better_sqlite3.node",
      "7f03-7f04 rw-p 00000000 00:00 0 [heap]",
    ].join("\n");
    expect(await detectNodeLayout(join(tmp.dir, "node-link"), maps)).toEqual({
      binary: join(prefix, "bin", "node"),
      links: [{ path: join(prefix, "bin", "corepack"), target: "../lib/node_modules/corepack/dist/corepack.js" }],
      packages: [join(prefix, "lib", "node_modules", "corepack")],
      libraries: [`${prefix}/lib/libnode.so.115`],
    });
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
