import path from "node:path";
import type { HostFacts, Installed, ManagerView } from "../types.js";
import { homeOf, isExecutable, listDir, readHead, real } from "./fs.js";

/**
 * Go trees: a GOROOT holds `bin/go` and a `VERSION` file (`go1.22.3`). They live in /usr/local/go
 * (the official archive), GOROOT, ~/sdk/go1.x (golang.org/dl), Go's own toolchain downloads in the
 * module cache, and Debian's /usr/lib/go-1.x. asdf and mise installs come from asdf.ts.
 */
export async function goView(h: HostFacts): Promise<ManagerView | null> {
  const home = homeOf(h.env);
  const roots = [...(h.env.GOROOT ? [h.env.GOROOT] : []), ...h.goRoots];
  if (home) {
    for (const n of await listDir(path.join(home, "sdk"))) if (n.startsWith("go")) roots.push(path.join(home, "sdk", n));
    const modcache = h.env.GOMODCACHE ?? path.join(h.env.GOPATH?.split(":")[0] ?? path.join(home, "go"), "pkg", "mod");
    for (const n of await listDir(path.join(modcache, "golang.org"))) if (n.startsWith("toolchain@")) roots.push(path.join(modcache, "golang.org", n));
  }
  for (const n of await listDir("/usr/lib")) if (/^go-\d/.test(n)) roots.push(path.join("/usr/lib", n));
  const installed: Installed[] = [];
  for (const root of roots) {
    const found = await goRoot(root);
    if (found && !installed.some((i) => i.dir === found.dir)) installed.push(found);
  }
  return installed.length === 0 ? null : { manager: "go", installed, defaultSpec: null, shimDirs: [] };
}

/** The Go tree at `root`, if it is one. */
async function goRoot(root: string): Promise<Installed | null> {
  const dir = await real(root);
  if (!dir || !(await isExecutable(path.join(dir, "bin", "go")))) return null;
  const text = await readHead(path.join(dir, "VERSION"), 4096);
  const version = text && /^go(\S+)/.exec(text)?.[1];
  if (!version) return null;
  return { name: "go", version, aliases: [], dir, bin: path.join(dir, "bin"), manager: "go" };
}
