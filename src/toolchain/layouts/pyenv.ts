import path from "node:path";
import type { HostFacts, Installed, ManagerView } from "../types.js";
import { homeOf, isExecutable, listDir, readHead, real } from "./fs.js";
import { firstValue } from "../repo-file.js";

/**
 * pyenv: `~/.pyenv/shims/python` is a script that asks pyenv which version to run; each version is a
 * prefix of its own in `$PYENV_ROOT/versions/<version>` (bin, lib, include). A virtualenv made by
 * pyenv-virtualenv is a link into `versions/<base>/envs/<name>`, whose interpreter lives in the base.
 */
export async function pyenvView(h: HostFacts): Promise<ManagerView | null> {
  const home = homeOf(h.env);
  const root = h.env.PYENV_ROOT ?? (home && path.join(home, ".pyenv"));
  if (!root) return null;
  const installed: Installed[] = [];
  for (const name of await listDir(path.join(root, "versions"))) {
    const dir = await real(path.join(root, "versions", name));
    if (!dir || !((await isExecutable(path.join(dir, "bin", "python"))) || (await isExecutable(path.join(dir, "bin", "python3"))))) continue;
    const venv = await venvBase(dir);
    installed.push({
      name: "python",
      version: venv?.version ?? name,
      aliases: [name],
      dir,
      bin: path.join(dir, "bin"),
      extra: venv ? [venv.home] : undefined,
      manager: "pyenv",
    });
  }
  if (installed.length === 0) return null;
  return { manager: "pyenv", installed, defaultSpec: await globalVersion(h, root), shimDirs: [path.join(root, "shims")] };
}

async function globalVersion(h: HostFacts, root: string): Promise<ManagerView["defaultSpec"]> {
  if (h.env.PYENV_VERSION) return { spec: h.env.PYENV_VERSION.split(":")[0], source: "PYENV_VERSION" };
  const file = path.join(root, "version");
  const text = await readHead(file);
  const spec = text === null ? null : firstValue(text);
  return spec ? { spec, source: file } : null;
}

/** A virtualenv's pyvenv.cfg names the interpreter's prefix (`home = …/bin`) and its version. */
async function venvBase(dir: string): Promise<{ home: string; version?: string } | null> {
  const cfg = await readHead(path.join(dir, "pyvenv.cfg"));
  if (cfg === null) return null;
  const home = /^home\s*=\s*(\S.*)$/m.exec(cfg)?.[1].trim();
  const version = /^version(?:_info)?\s*=\s*(\d+\.\d+\.\d+)/m.exec(cfg)?.[1];
  const base = home && (await real(path.dirname(home)));
  return base ? { home: base, version } : null;
}
