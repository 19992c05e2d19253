import path from "node:path";
import type { HostFacts, Installed } from "../types.js";
import { isExecutable, listDir, real, which } from "./fs.js";

/** What the host's own PATH runs for `program` (the user's choice when nothing pins one). */
export async function onHostPath(program: string, h: HostFacts): Promise<{ found: string; real: string } | null> {
  const found = await which(program, h.env.PATH ?? "");
  const resolved = found && (await real(found));
  return found && resolved ? { found, real: resolved } : null;
}

/**
 * PATH inside every sandbox (a node prefix outside /usr is prepended when the host needs one): the
 * system's program directories, so the toolchains under them need no binding.
 */
export const SANDBOX_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

/** The manager name of the node that runs Patchgate: the node binding binds it, file by file. */
export const PATCHGATE_NODE = "Patchgate's node";

/**
 * Toolchains every sandbox sees already: Debian's under /usr, and the node that runs Patchgate
 * (bound file by file by the node binding, wherever it is installed).
 */
export async function systemInstalled(name: string, h: HostFacts): Promise<Installed[]> {
  if (name === "node") {
    const bin = path.dirname(h.node.binary);
    return [{ name, version: h.node.version.replace(/^v/, ""), aliases: ["system"], dir: path.dirname(bin), bin, manager: PATCHGATE_NODE }];
  }
  if (name === "python") {
    const out: Installed[] = [];
    for (const n of await listDir("/usr/bin")) {
      const m = /^python(3\.\d+)$/.exec(n);
      if (m) out.push({ name, version: m[1], aliases: ["system"], dir: "/usr", bin: "/usr/bin", manager: "system" });
    }
    return out;
  }
  if (name === "rust" && (await isExecutable("/usr/bin/cargo"))) {
    return [{ name, version: "unknown", aliases: ["system"], dir: "/usr", bin: "/usr/bin", manager: "system" }];
  }
  return [];
}

/** Everything under /usr is bound into every sandbox; nothing there needs a bind of its own. */
export function underUsr(p: string): boolean {
  return p === "/usr" || p.startsWith("/usr/");
}
