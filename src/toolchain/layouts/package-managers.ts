import path from "node:path";
import type { HostFacts, Installed } from "../types.js";
import { isExecutable, readHead, real } from "./fs.js";
import { underUsr } from "./system.js";

const PACKAGE_NAMES: Record<string, string[]> = { pnpm: ["pnpm"], yarn: ["yarn", "@yarnpkg/cli-dist"], npm: ["npm"] };

/**
 * pnpm, yarn or npm as the sandbox can run them: in the bin directory of the node toolchain it gets
 * (a global install with that node), under /usr, or as a standalone executable elsewhere on the
 * host's PATH (its directory is bound). The version comes from the package's package.json.
 */
export async function packageManagerInstalled(name: string, h: HostFacts, nodeBin: string | null): Promise<Installed[]> {
  const hostDirs = (h.env.PATH ?? "").split(":").filter((d) => path.isAbsolute(d));
  const patchgateBin = path.dirname(h.node.binary);
  const dirs = [...(nodeBin ? [nodeBin] : []), patchgateBin, ...hostDirs];
  const out: Installed[] = [];
  for (const dir of dirs) {
    const file = path.join(dir, name);
    const resolved = (await isExecutable(file)) ? await real(file) : null;
    if (!resolved || out.some((i) => i.aliases.includes(resolved))) continue;
    const version = (await packageVersion(resolved, PACKAGE_NAMES[name] ?? [name])) ?? "unknown";
    // Patchgate's own node has only npm, npx and corepack bound beside it (node binding).
    const visible = dir === nodeBin || underUsr(dir) || (dir === patchgateBin && name === "npm");
    // A standalone binary (pnpm's own installer) is bound by its directory; a script inside a
    // node_modules package needs its node prefix, which only the visible places have.
    if (!visible && (dir === patchgateBin || path.basename(resolved) !== name)) continue;
    const bin = visible ? dir : path.dirname(resolved);
    out.push({ name, version, aliases: [resolved], dir: bin, bin, manager: visible ? "on PATH" : "standalone" });
  }
  return out;
}

async function packageVersion(file: string, names: string[]): Promise<string | null> {
  let dir = path.dirname(file);
  for (let up = 0; up < 4; up++, dir = path.dirname(dir)) {
    const text = await readHead(path.join(dir, "package.json"));
    if (text === null) continue;
    try {
      const pkg = JSON.parse(text) as { name?: unknown; version?: unknown };
      if (typeof pkg.name === "string" && names.includes(pkg.name) && typeof pkg.version === "string") return pkg.version;
    } catch {
      // Not a package.json we can read: keep looking up.
    }
  }
  return null;
}
