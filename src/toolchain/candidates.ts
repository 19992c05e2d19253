import path from "node:path";
import type { HostFacts, Installed, ManagerView } from "./types.js";
import { rustupView } from "./layouts/rustup.js";
import { pyenvView } from "./layouts/pyenv.js";
import { fnmView, nvmView } from "./layouts/node.js";
import { asdfView, miseView } from "./layouts/asdf.js";
import { goView } from "./layouts/go.js";
import { systemInstalled } from "./layouts/system.js";
import { packageManagerInstalled } from "./layouts/package-managers.js";

/** Every place a toolchain of this name is installed on the host, grouped by the manager that put it there. */
export interface Candidates {
  views: ManagerView[];
  /** The managers' installs first, in their order, then what every sandbox sees already. */
  all: Installed[];
}

/** `fetched`: toolchains fetched into the dependency cache for this session, after the host's own. */
export async function candidatesFor(name: string, h: HostFacts, nodeBin: string | null, fetched: readonly Installed[] = []): Promise<Candidates> {
  const views = (await Promise.all(viewsFor(name, h))).filter((v): v is ManagerView => v !== null);
  const system = ["pnpm", "yarn", "npm"].includes(name) ? await packageManagerInstalled(name, h, nodeBin) : await systemInstalled(name, h);
  return { views, all: [...views.flatMap((v) => v.installed), ...system, ...fetched.filter((i) => i.name === name)] };
}

function viewsFor(name: string, h: HostFacts): Promise<ManagerView | null>[] {
  const shared = [asdfView(h, name), miseView(h, name)];
  switch (name) {
    case "rust":
      return [rustupView(h), ...shared];
    case "python":
      return [pyenvView(h), ...shared];
    case "node":
      return [nvmView(h), fnmView(h), ...shared];
    case "go":
      return [goView(h), ...shared];
    case "pnpm":
    case "yarn":
    case "npm":
      return [];
    default:
      return shared;
  }
}

/** The candidate that owns a path (a program's realpath inside its directory). */
export function owner(all: readonly Installed[], realPath: string): Installed | null {
  return all.find((c) => realPath === c.dir || realPath.startsWith(`${c.dir}${path.sep}`)) ?? null;
}
