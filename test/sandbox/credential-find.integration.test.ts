import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { findWalk, walk, type TreeWalk } from "../../src/sandbox/credential-walk.js";
import { tempWorkspace } from "./sandbox-fixture.js";

/** find(1) walks a toolchain tree for credential names exactly as the walk in the process does. */
const FILES = [
  "lib/node/etc/npmrc",
  "a/b/c/.npmrc",
  "a/b/.netrc",
  "opt/x/.config/gh/hosts.yml",
  "opt/y/.aws/credentials",
  "odd name/with\nnewline/.pypirc",
  "deep/1/2/3/4/5/6/credentials.toml",
  "plain/readme.txt",
];

test("find's walk and the in-process walk find the same entries: files, masked folders, symlinks judged by their target", async () => {
  const root = tempWorkspace("pg-cred-find-");
  try {
    const tree = join(root.dir, "toolchain");
    for (const rel of FILES) {
      mkdirSync(dirname(join(tree, rel)), { recursive: true });
      writeFileSync(join(tree, rel), "x\n");
    }
    mkdirSync(join(tree, "links"));
    symlinkSync(join(tree, "a/b/.netrc"), join(tree, "links/.git-credentials"));
    symlinkSync(join(tree, "nowhere"), join(tree, "links/.env"));
    // A symlinked folder is not entered by either walk.
    symlinkSync(join(tree, "a"), join(tree, "links/a-again"));
    mkdirSync(join(tree, "closed/.ssh"), { recursive: true });
    chmodSync(join(tree, "closed"), 0o000);
    const sorted = (xs: { path: string; kind: string }[]) => [...xs].sort((x, y) => x.path.localeCompare(y.path));
    const byFind = await findWalk(tree);
    const inProcess = await walk(tree);
    chmodSync(join(tree, "closed"), 0o755);
    expect(byFind).not.toBeNull();
    expect(sorted(byFind!.entries)).toEqual(sorted(inProcess.entries));
    // Both stamp the same directories alike, find's times read to the nanosecond.
    const stamps = (w: TreeWalk) => [...w.dirs].sort((x, y) => x.rel.localeCompare(y.rel));
    expect(stamps(byFind!)).toEqual(stamps(inProcess));
    expect(stamps(byFind!).map((d) => d.rel)).toEqual(expect.arrayContaining(["", "a/b/c", "odd name/with\nnewline", "closed"]));
    expect(sorted(byFind!.entries).map((e) => `${e.path.slice(tree.length + 1)} ${e.kind}`)).toEqual(
      expect.arrayContaining([
        "a/b/.netrc file",
        "a/b/c/.npmrc file",
        "deep/1/2/3/4/5/6/credentials.toml file",
        "lib/node/etc/npmrc file",
        "links/.git-credentials file",
        "odd name/with\nnewline/.pypirc file",
        "opt/x/.config dir",
        "opt/y/.aws dir",
      ]),
    );
  } finally {
    root.cleanup();
  }
});
