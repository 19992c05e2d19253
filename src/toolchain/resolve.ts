import path from "node:path";
import { candidatesFor } from "./candidates.js";
import { choosePinned, chooseUnpinned, hostPathChoice, type Choice } from "./choose.js";
import { installHint, OPERATOR_HINT } from "./install-hints.js";
import { isExecutable } from "./layouts/fs.js";
import { nvmAlias } from "./layouts/node.js";
import { PATCHGATE_NODE, SANDBOX_PATH, underUsr } from "./layouts/system.js";
import { bindRefusal } from "./narrow.js";
import { operatorRecords, type OperatorToolchain } from "./operator.js";
import { readPins } from "./pins.js";
import { programsOf, type ProgramUse } from "./programs.js";
import type { HostFacts, Installed, Pin, ToolchainRecord, ToolchainResolution, UnmetToolchain } from "./types.js";

export interface ResolveInput {
  /** The session's clone: where the pins are read. */
  root: string;
  /** The maintainer's test and setup lines. */
  commands: { text: string; source: string }[];
  host: HostFacts;
  operator?: readonly OperatorToolchain[];
  /** Toolchains fetched for this session because the host lacked what a pin asks (src/depcache/toolchain-fetch). */
  fetched?: readonly Installed[];
}

// Node before the package managers, which may live in its prefix.
const ORDER = ["rust", "python", "node", "go"];
const PACKAGE_MANAGERS = ["npm", "pnpm", "yarn"];
const KNOWN = new Set([...ORDER, ...PACKAGE_MANAGERS]);
const DEFAULT_DRIVER: Record<string, string> = { rust: "cargo", python: "python3", node: "node", go: "go" };

/**
 * The toolchains a repository needs, found on the host before its first sandboxed run: from the
 * programs its test and setup lines run and the versions it pins, through the version managers'
 * shims to the concrete toolchain directory. Pure apart from reading the host's layout; nothing runs.
 */
export async function resolveToolchains(input: ResolveInput): Promise<ToolchainResolution> {
  const pins = await readPins(input.root);
  const uses = programsOf(input.commands);
  const needed = new Set([...pins.filter((p) => !p.optional).map((p) => p.name), ...uses.map((u) => u.toolchain)]);
  // A package manager runs on node.
  if (PACKAGE_MANAGERS.some((m) => needed.has(m))) needed.add("node");
  const names = [...ORDER, ...[...needed].filter((n) => !KNOWN.has(n)).sort(), ...PACKAGE_MANAGERS].filter((n) => needed.has(n));
  const toolchains: ToolchainRecord[] = [];
  const unmet: UnmetToolchain[] = [];
  for (const name of names) {
    const nodeBin = toolchains.find((t) => t.name === "node")?.path ?? null;
    const got = await resolveOne(name, pins, uses, input.host, nodeBin, input.fetched ?? []);
    if ("record" in got) toolchains.push(got.record);
    else if (got.unmet) unmet.push(got.unmet);
  }
  toolchains.push(...operatorRecords(input.operator ?? []));
  unmet.push(...(await unreachableDrivers(uses, toolchains, unmet, input.host)));
  return { toolchains, unmet };
}

type One = { record: ToolchainRecord } | { unmet: UnmetToolchain | null };

async function resolveOne(
  name: string,
  pins: readonly Pin[],
  uses: readonly ProgramUse[],
  h: HostFacts,
  nodeBin: string | null,
  fetched: readonly Installed[],
): Promise<One> {
  const pin = pins.find((p) => p.name === name && !p.optional);
  const usedBy = uses.find((u) => u.toolchain === name);
  // Pins of the toolchains Patchgate knows are requirements; a package manager's, when a line runs it;
  // another tool of .tool-versions is bound when installed, and noted when not.
  const required = KNOWN.has(name) && (!PACKAGE_MANAGERS.includes(name) || usedBy !== undefined);
  if (pin?.error) return { unmet: { name, wanted: pin.spec, source: pin.source, install: pin.error, required } };
  const c = await candidatesFor(name, h, nodeBin, fetched);
  // What the user's own shell runs for the toolchain's main program (node, not the npm beside it).
  const program = DEFAULT_DRIVER[name] ?? usedBy?.program ?? name;
  const onPath = await hostPathChoice(program, c, h);
  let choice: Choice | null;
  if (pin) {
    const nvmRoot = c.views.find((v) => v.manager === "nvm") ? (h.env.NVM_DIR ?? path.join(h.env.HOME ?? "/", ".nvm")) : null;
    const spec = name === "node" && nvmRoot ? await nvmAlias(nvmRoot, pin.spec) : pin.spec;
    choice = choosePinned(
      c,
      pin,
      spec,
      pins.find((p) => p.name === name && p.optional),
      onPath,
    );
    if (!choice) {
      const have = c.all.map((i) => `${i.version} (${i.manager})`).join(", ") || "none";
      const wanted = pin.rule === "at_least" ? `>= ${pin.spec}` : pin.spec;
      return { unmet: { name, wanted, source: pin.source, install: `${installHint(name, pin.spec, c.views)}; installed: ${have}`, required } };
    }
  } else {
    // Nothing installed and nothing pinned: a driver the lines run is reported by unreachableDrivers.
    choice = chooseUnpinned(c, onPath);
    if (!choice) return { unmet: null };
  }
  return recordOf(name, choice, h);
}

function recordOf(name: string, choice: Choice, h: HostFacts): One {
  const i = choice.installed;
  // The node running Patchgate is bound file by file by the node binding; /usr is bound whole.
  const own = i.manager === PATCHGATE_NODE;
  const binds = own ? [] : [i.dir, ...(i.extra ?? [])].filter((d, k, all) => !underUsr(d) && all.indexOf(d) === k);
  for (const dir of binds) {
    const refusal = bindRefusal(dir, h.protectedDirs);
    if (refusal)
      return {
        unmet: {
          name,
          wanted: i.version,
          source: choice.how,
          install: `${dir} is not bound into the sandbox: ${refusal}; install the toolchain elsewhere ${OPERATOR_HINT}`,
          required: true,
        },
      };
  }
  return { record: { name, version: i.version, path: i.bin, binds, how: choice.how } };
}

// The PATH the sandbox will have, and what the node binding adds beside Patchgate's node.
async function visibleInSandbox(program: string, toolchains: readonly ToolchainRecord[], h: HostFacts): Promise<boolean> {
  const dirs = [...toolchains.map((t) => t.path), ...SANDBOX_PATH.split(":").filter(underUsr)];
  for (const d of dirs) if (await isExecutable(path.join(d, program))) return true;
  const nodeBin = path.dirname(h.node.binary);
  return ["node", "npm", "npx", "corepack"].includes(program) && (await isExecutable(path.join(nodeBin, program)));
}

/** A driver a line runs that the sandbox's PATH would not find: the line could only fail with 127. */
async function unreachableDrivers(
  uses: readonly ProgramUse[],
  toolchains: readonly ToolchainRecord[],
  unmet: readonly UnmetToolchain[],
  h: HostFacts,
): Promise<UnmetToolchain[]> {
  const out: UnmetToolchain[] = [];
  for (const use of uses) {
    if (!use.driver || unmet.some((u) => u.name === use.toolchain) || (await visibleInSandbox(use.program, toolchains, h))) continue;
    const chosen = toolchains.find((t) => t.name === use.toolchain);
    const where = chosen ? `${use.toolchain} ${chosen.version} at ${chosen.path} has no ${use.program}` : `no ${use.toolchain} was found on the host`;
    const install = `${where}; ${installHint(use.toolchain, null, [])} ${OPERATOR_HINT}`;
    out.push({ name: use.program, wanted: "any", source: `the ${use.source} runs ${use.program}`, install, required: true });
  }
  return out;
}
