import path from "node:path";
import type { Candidates } from "./candidates.js";
import { owner } from "./candidates.js";
import { onHostPath, underUsr } from "./layouts/system.js";
import type { HostFacts, Installed, ManagerView, Pin } from "./types.js";
import { atLeast, matchesPrefix, newestFirst, numericParts, sameMajor } from "./versions.js";

export interface Choice {
  installed: Installed;
  how: string;
}

const ANY_VERSION = new Set(["node", "stable", "latest", "current"]);

/** Whether an installed toolchain satisfies a version spec under a pin's rule. */
function satisfies(c: Installed, spec: string, rule: Pin["rule"]): boolean {
  if (spec === "system") return c.aliases.includes("system");
  if (rule === "at_least") return atLeast(c.version, spec);
  if (rule === "major") return sameMajor(spec, c.version);
  if (c.aliases.includes(spec) || matchesPrefix(spec, c.version)) return true;
  if (c.name === "node" && ANY_VERSION.has(spec)) return true;
  // An nvm LTS name without nvm's alias files: LTS lines are the even majors.
  const major = numericParts(c.version)?.[0];
  return c.name === "node" && spec.startsWith("lts/") && major !== undefined && major % 2 === 0;
}

/** Among the installs that satisfy a pin: the preferred version, then what the host's PATH runs, then the newest. */
export function choosePinned(c: Candidates, pin: Pin, spec: string, preferred: Pin | undefined, onPath: Choice | null): Choice | null {
  const fits = c.all.filter((i) => satisfies(i, spec, pin.rule));
  const asked = pin.rule === "at_least" ? `${pin.spec} or later` : pin.spec === spec ? pin.spec : `${pin.spec} = ${spec}`;
  const why = (i: Installed, extra = "") => `${i.manager} ${label(i)}, pinned by ${pin.source} (${asked})${extra}`;
  const pref = preferred && fits.find((i) => satisfies(i, preferred.spec, preferred.rule));
  if (pref) return { installed: pref, how: why(pref, `, preferred by ${preferred.source}`) };
  if (onPath && fits.includes(onPath.installed)) return { installed: onPath.installed, how: why(onPath.installed, "; the host's PATH runs it too") };
  const best = pin.rule === "prefix" && fits.some((i) => i.aliases.includes(spec)) ? fits.find((i) => i.aliases.includes(spec)) : newestFirst(fits)[0];
  return best ? { installed: best, how: why(best) } : null;
}

/** No pin: what the host's PATH runs (through a shim to the manager's default), else a manager's default, else the newest. */
export function chooseUnpinned(c: Candidates, onPath: Choice | null): Choice | null {
  if (onPath) return onPath;
  for (const view of c.views) {
    const hit = defaultOf(view, c);
    const d = view.defaultSpec;
    if (hit && d) return { installed: hit, how: `${view.manager} default ${d.spec} (${d.source})` };
  }
  const newest = c.views[0] ? newestFirst(c.views[0].installed)[0] : c.all[0];
  return newest ? { installed: newest, how: `${newest.manager} ${label(newest)}${c.views[0] ? ", the newest installed" : ""}` } : null;
}

/**
 * What the user's own shell would run for `program`: a shim or proxy of a manager stands for that
 * manager's default; a binary inside a known install is that install; one under /usr is the system's.
 */
export async function hostPathChoice(program: string, c: Candidates, h: HostFacts): Promise<Choice | null> {
  const hit = await onHostPath(program, h);
  if (!hit) return null;
  const dir = path.dirname(hit.found);
  for (const view of c.views) {
    if (!view.shimDirs.includes(dir)) continue;
    const chosen = defaultOf(view, c);
    const d = view.defaultSpec;
    if (chosen && d)
      return { installed: chosen, how: `${hit.found} is a shim of ${view.manager}; followed to ${view.manager}'s default ${d.spec} (${d.source})` };
  }
  const inside = owner(c.all, hit.real);
  if (inside) return { installed: inside, how: `the host's PATH runs ${hit.found} (${inside.manager} ${label(inside)})` };
  if (underUsr(hit.real)) {
    const sys = c.all.find((i) => i.bin === dir) ?? {
      name: c.all[0]?.name ?? program,
      version: "unknown",
      aliases: ["system"],
      dir: "/usr",
      bin: dir,
      manager: "system",
    };
    return { installed: sys, how: `the host's PATH runs ${hit.found} (system)` };
  }
  return null;
}

/** A manager's default among its own installs, or the system's (pyenv's `system`). */
function defaultOf(view: ManagerView, c: Candidates): Installed | null {
  const d = view.defaultSpec;
  if (!d) return null;
  return view.installed.find((i) => satisfies(i, d.spec, "prefix")) ?? c.all.find((i) => satisfies(i, d.spec, "prefix")) ?? null;
}

function label(i: Installed): string {
  const named = i.aliases.find((a) => !a.startsWith("/") && a !== "system");
  // nvm's and fnm's directory names (`v20.11.0`) are the version itself.
  return named && named !== i.version && named !== `v${i.version}` ? `${named} (${i.version})` : i.version;
}
