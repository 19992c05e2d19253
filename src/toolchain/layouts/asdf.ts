import path from "node:path";
import { parse as parseToml } from "smol-toml";
import type { HostFacts, Installed, ManagerView } from "../types.js";
import { homeOf, isExecutable, listDir, readHead, real } from "./fs.js";
import { isToolName } from "../pins.js";

/**
 * asdf and mise: `<data>/installs/<tool>/<version>` per version, `<data>/shims/<program>` scripts
 * that pick one at run time. Tool names differ (asdf's `nodejs`, `golang`; mise's `node`, `go`).
 */
const NAMES: Record<string, string[]> = { node: ["nodejs", "node"], go: ["golang", "go"], python: ["python"], rust: ["rust"] };

function toolDirNames(name: string): string[] {
  return NAMES[name] ?? [name];
}

export async function asdfView(h: HostFacts, name: string): Promise<ManagerView | null> {
  const home = homeOf(h.env);
  const root = h.env.ASDF_DATA_DIR ?? (home && path.join(home, ".asdf"));
  if (!root || !home) return null;
  const installed = await installs(root, name, "asdf");
  if (installed.length === 0) return null;
  const globalFile = path.join(home, h.env.ASDF_DEFAULT_TOOL_VERSIONS_FILENAME ?? ".tool-versions");
  const text = (await readHead(globalFile)) ?? "";
  const line = text
    .split("\n")
    .map((l) => l.replace(/#.*$/, "").trim().split(/\s+/))
    .find(([tool]) => toolDirNames(name).includes(tool));
  return { manager: "asdf", installed, defaultSpec: line?.[1] ? { spec: line[1], source: globalFile } : null, shimDirs: [path.join(root, "shims")] };
}

export async function miseView(h: HostFacts, name: string): Promise<ManagerView | null> {
  const home = homeOf(h.env);
  if (!home) return null;
  const root = h.env.MISE_DATA_DIR ?? path.join(h.env.XDG_DATA_HOME ?? path.join(home, ".local", "share"), "mise");
  const installed = await installs(root, name, "mise");
  if (installed.length === 0) return null;
  const config = h.env.MISE_GLOBAL_CONFIG_FILE ?? path.join(h.env.XDG_CONFIG_HOME ?? path.join(home, ".config"), "mise", "config.toml");
  return { manager: "mise", installed, defaultSpec: await miseDefault(config, name), shimDirs: [path.join(root, "shims")] };
}

async function installs(root: string, name: string, manager: string): Promise<Installed[]> {
  const out: Installed[] = [];
  // Names come from the repository's pins: only a plain name ever becomes a directory to look in.
  for (const tool of toolDirNames(name).filter(isToolName)) {
    for (const version of await listDir(path.join(root, "installs", tool))) {
      const dir = await real(path.join(root, "installs", tool, version));
      const bin = dir && (await binOf(dir));
      // mise links `20` to `20.11.0`: one installation, listed once, under its full version.
      if (!dir || !bin || out.some((i) => i.dir === dir)) continue;
      out.push({ name, version: path.basename(dir), aliases: [version], dir, bin, manager });
    }
  }
  return out;
}

// Most plugins install a prefix with bin/; Go's keep the Go tree under go/.
async function binOf(dir: string): Promise<string | null> {
  for (const rel of ["bin", path.join("go", "bin")]) {
    const names = await listDir(path.join(dir, rel));
    for (const n of names) if (await isExecutable(path.join(dir, rel, n))) return path.join(dir, rel);
  }
  return null;
}

async function miseDefault(file: string, name: string): Promise<ManagerView["defaultSpec"]> {
  const text = await readHead(file);
  if (text === null) return null;
  try {
    const tools = (parseToml(text).tools ?? {}) as Record<string, unknown>;
    const spec = toolDirNames(name)
      .map((t) => tools[t])
      .find((v) => typeof v === "string");
    return typeof spec === "string" ? { spec, source: file } : null;
  } catch {
    return null;
  }
}
