import { parse as parseToml } from "smol-toml";
import { firstValue, readRepoFile } from "./repo-file.js";
import type { Pin } from "./types.js";

/**
 * The versions a repository pins, from the files its developers' tools read. A pin only ever
 * selects among toolchains installed on the host: a pin that names a path is refused, never bound.
 * The first pin of a toolchain wins, in this order: the toolchain's own file, then `.tool-versions`,
 * then `mise.toml`, then package.json (Volta's `volta.node`, then `engines.node`).
 */
export async function readPins(root: string): Promise<Pin[]> {
  const found = [
    ...(await rustPins(root)),
    ...(await onePin(root, ".python-version", "python")),
    ...(await onePin(root, ".nvmrc", "node")),
    ...(await onePin(root, ".node-version", "node")),
    ...(await goModPins(root)),
    ...(await toolVersionsPins(root)),
    ...(await misePins(root)),
    ...(await packageManagerPin(root)),
    ...(await packageJsonNodePins(root)),
  ];
  const byName = new Map<string, Pin>();
  for (const pin of found) {
    const key = pin.optional ? `${pin.name}?` : pin.name;
    if (!byName.has(key)) byName.set(key, pin);
  }
  return [...byName.values()];
}

/** A plain tool name (`nodejs`, `zig`, `cargo-make`): one path segment, never `.` or `..`. */
export function isToolName(name: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/.test(name) && !name.includes("..");
}

// Version words and channel names; `lts/*` and `lts/iron` are nvm's.
const SPEC = /^(lts\/[a-z*]+|[A-Za-z0-9][A-Za-z0-9._+-]{0,63})$/;

function pin(rawName: string, raw: string, source: string, rule: Pin["rule"] = "prefix"): Pin {
  const spec = raw.trim();
  // A tool's name becomes a directory name under a manager's installs: `../../project` would name
  // a directory of HOME the repository chose. Such a pin binds nothing and says why.
  if (!isToolName(rawName)) {
    const name = JSON.stringify(rawName.slice(0, 64));
    return { name, spec: spec.slice(0, 64), source, rule, error: `${source} names the tool ${name}, which is not a tool name` };
  }
  const name = rawName;
  if (SPEC.test(spec)) return { name, spec, source, rule };
  return { name, spec: spec.slice(0, 64), source, rule, error: `${source} asks for ${JSON.stringify(spec.slice(0, 64))}, which is not a version` };
}

async function onePin(root: string, file: string, name: string): Promise<Pin[]> {
  const text = await readRepoFile(root, file);
  const value = text === null ? null : firstValue(text);
  return value === null ? [] : [pin(name, value, file)];
}

// rust-toolchain.toml, or the older rust-toolchain (a bare channel, or the same TOML).
async function rustPins(root: string): Promise<Pin[]> {
  for (const file of ["rust-toolchain.toml", "rust-toolchain"]) {
    const text = await readRepoFile(root, file);
    if (text === null) continue;
    const bare = firstValue(text);
    if (file === "rust-toolchain" && bare !== null && !bare.startsWith("[")) return [pin("rust", bare, file)];
    try {
      const table = (parseToml(text).toolchain ?? {}) as Record<string, unknown>;
      if (table.path !== undefined)
        return [
          {
            name: "rust",
            spec: "path",
            source: file,
            rule: "prefix",
            error: `${file} names a toolchain by path; Patchgate binds only toolchains installed on the host`,
          },
        ];
      if (typeof table.channel === "string") return [pin("rust", table.channel, file)];
    } catch (e) {
      return [{ name: "rust", spec: "?", source: file, rule: "prefix", error: `${file} is not valid TOML: ${(e as Error).message.split("\n")[0]}` }];
    }
  }
  return [];
}

// `go 1.22` is the least version the module builds with; `toolchain go1.22.3` is the one it prefers.
async function goModPins(root: string): Promise<Pin[]> {
  const text = await readRepoFile(root, "go.mod");
  if (text === null) return [];
  const pins: Pin[] = [];
  const go = /^go\s+(\S+)/m.exec(text);
  if (go) pins.push(pin("go", go[1], "go.mod", "at_least"));
  const tc = /^toolchain\s+go(\S+)/m.exec(text);
  if (tc) pins.push({ ...pin("go", tc[1], "go.mod toolchain"), optional: true });
  return pins;
}

// asdf's names, and mise's, for the toolchains known here; other tools keep their own name.
const TOOL_NAMES: Record<string, string> = { nodejs: "node", node: "node", golang: "go", go: "go", python: "python", rust: "rust" };

async function toolVersionsPins(root: string): Promise<Pin[]> {
  const text = await readRepoFile(root, ".tool-versions");
  if (text === null) return [];
  const pins: Pin[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const [tool, version] = raw.replace(/#.*$/, "").trim().split(/\s+/);
    if (!tool || !version) continue;
    const p = pin(TOOL_NAMES[tool] ?? tool, version, ".tool-versions");
    pins.push(/^(path|ref):/.test(version) ? { ...p, error: `.tool-versions asks for ${tool} ${version}; Patchgate binds only installed versions` } : p);
  }
  return pins;
}

async function misePins(root: string): Promise<Pin[]> {
  for (const file of ["mise.toml", ".mise.toml"]) {
    const text = await readRepoFile(root, file);
    if (text === null) continue;
    try {
      const tools = (parseToml(text).tools ?? {}) as Record<string, unknown>;
      return Object.entries(tools).flatMap(([tool, v]) => (typeof v === "string" ? [pin(TOOL_NAMES[tool] ?? tool, v, file)] : []));
    } catch {
      return [];
    }
  }
  return [];
}

async function packageJson(root: string): Promise<Record<string, unknown> | null> {
  const text = await readRepoFile(root, "package.json");
  if (text === null) return null;
  try {
    const doc: unknown = JSON.parse(text);
    return doc && typeof doc === "object" ? (doc as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

// `"packageManager": "pnpm@8.15.0+sha512.…"` — corepack's field.
async function packageManagerPin(root: string): Promise<Pin[]> {
  const field = (await packageJson(root))?.packageManager;
  const m = typeof field === "string" ? /^(npm|pnpm|yarn)@([0-9][^+\s]*)/.exec(field) : null;
  return m ? [pin(m[1], m[2], "package.json packageManager", "major")] : [];
}

/**
 * Volta's `"volta": {"node": "22.14.0"}` (an exact version), and `engines.node` in the forms that name
 * one line: `22`, `22.x`, `^22.14.0` (that major), `~22.14` (that minor), `>=20.9` (that or later).
 * A range of alternatives (`^18 || ^20`) or anything else pins nothing: it is read by npm, not here.
 */
async function packageJsonNodePins(root: string): Promise<Pin[]> {
  const doc = await packageJson(root);
  const field = (o: unknown, k: string): unknown => (o && typeof o === "object" ? (o as Record<string, unknown>)[k] : undefined);
  const volta = field(doc?.volta, "node");
  if (typeof volta === "string") return [pin("node", volta, "package.json volta")];
  const engines = field(doc?.engines, "node");
  const range = typeof engines === "string" ? engines.trim() : "";
  const source = "package.json engines";
  const m = /^(>=|\^|~)?\s*v?(\d+(?:\.\d+){0,2})(\.x)?$/.exec(range);
  if (!m) return [];
  if (m[1] === ">=") return [pin("node", m[2], source, "at_least")];
  if (m[1] === "~") return [pin("node", m[2].split(".").slice(0, 2).join("."), source)];
  return [pin("node", m[2], source, m[1] === "^" || m[3] ? "major" : "prefix")];
}
