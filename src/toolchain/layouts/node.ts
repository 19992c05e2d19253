import path from "node:path";
import type { HostFacts, Installed, ManagerView } from "../types.js";
import { homeOf, isDir, isExecutable, listDir, readHead, real } from "./fs.js";
import { firstValue } from "../repo-file.js";

/**
 * nvm and fnm keep one prefix per Node version (`$NVM_DIR/versions/node/v20.11.0`,
 * `$FNM_DIR/node-versions/v20.11.0/installation`) and put its bin directory on PATH; neither uses
 * shims. Global packages (pnpm, yarn) installed with that node live in the same prefix.
 */
export async function nvmView(h: HostFacts): Promise<ManagerView | null> {
  const home = homeOf(h.env);
  const root = h.env.NVM_DIR ?? (home && path.join(home, ".nvm"));
  if (!root) return null;
  const installed = await prefixes(path.join(root, "versions", "node"), "", "nvm");
  if (installed.length === 0) return null;
  const alias = await readHead(path.join(root, "alias", "default"));
  const spec = alias === null ? null : firstValue(alias);
  return {
    manager: "nvm",
    installed,
    defaultSpec: spec ? { spec: await nvmAlias(root, spec), source: path.join(root, "alias", "default") } : null,
    shimDirs: [],
  };
}

export async function fnmView(h: HostFacts): Promise<ManagerView | null> {
  const home = homeOf(h.env);
  const candidates = h.env.FNM_DIR
    ? [h.env.FNM_DIR]
    : home
      ? [path.join(h.env.XDG_DATA_HOME ?? path.join(home, ".local", "share"), "fnm"), path.join(home, ".fnm")]
      : [];
  for (const root of candidates) {
    const installed = await prefixes(path.join(root, "node-versions"), "installation", "fnm");
    if (installed.length === 0) continue;
    // fnm's default is a link to the chosen installation.
    const target = await real(path.join(root, "aliases", "default"));
    const chosen = installed.find((i) => i.dir === target);
    return { manager: "fnm", installed, defaultSpec: chosen ? { spec: chosen.version, source: path.join(root, "aliases", "default") } : null, shimDirs: [] };
  }
  return null;
}

async function prefixes(versionsDir: string, inner: string, manager: string): Promise<Installed[]> {
  const out: Installed[] = [];
  for (const name of await listDir(versionsDir)) {
    const dir = await real(path.join(versionsDir, name, inner));
    if (!dir || !(await isExecutable(path.join(dir, "bin", "node")))) continue;
    out.push({ name: "node", version: name.replace(/^v/, ""), aliases: [name], dir, bin: path.join(dir, "bin"), manager });
  }
  return out;
}

/**
 * nvm's aliases: `lts/*` → `lts/iron` → `v20.11.0`, each a file in `$NVM_DIR/alias`. A name nvm has
 * no file for stays as it is (`20`, `node`), to be matched against the installed versions.
 */
export async function nvmAlias(root: string, spec: string): Promise<string> {
  let current = spec;
  for (let hop = 0; hop < 4 && /^[a-z]/.test(current) && !/^v\d/.test(current); hop++) {
    const file = path.join(root, "alias", ...current.split("/"));
    if (!file.startsWith(path.join(root, "alias") + path.sep) || !(await isDir(path.dirname(file)))) break;
    const text = await readHead(file);
    const next = text === null ? null : firstValue(text);
    if (!next) break;
    current = next;
  }
  return current;
}
