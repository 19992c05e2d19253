import { parse as parseToml } from "smol-toml";
import { parse as parseYaml } from "yaml";
import { withoutComments } from "./language.js";

/** Parsed configuration: a plain object, or null when the text is absent or does not parse. */
export type ConfigObject = Record<string, unknown>;

function asObject(value: unknown): ConfigObject | null {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as ConfigObject) : null;
}

function parsed(text: string | null, parse: (t: string) => unknown): ConfigObject | null {
  if (text === null) return null;
  try {
    return asObject(parse(text));
  } catch {
    return null;
  }
}

/** JSON with comments and trailing commas, as tsconfig.json, .eslintrc and the like are written. */
export function parseJsonc(text: string | null): ConfigObject | null {
  return parsed(text, (t) => JSON.parse(withoutComments("js", t).replace(/,(\s*[}\]])/g, "$1")));
}

export function parseTomlText(text: string | null): ConfigObject | null {
  return parsed(text, parseToml);
}

export function parseYamlText(text: string | null): ConfigObject | null {
  return parsed(text, (t) => parseYaml(t));
}

/** `a.b.c` in a parsed object; undefined when any step is missing. */
export function at(obj: ConfigObject | null, path: readonly string[]): unknown {
  let here: unknown = obj;
  for (const key of path) here = asObject(here)?.[key];
  return here;
}

/**
 * An INI file (setup.cfg, tox.ini, pytest.ini, mypy.ini, .coveragerc, .flake8) as section → key →
 * value; indented lines continue the value before them. Enough for the keys the detectors read;
 * interpolation and the like are left as written.
 */
export function parseIni(text: string | null): Map<string, Map<string, string>> {
  const sections = new Map<string, Map<string, string>>();
  let section: Map<string, string> | undefined;
  let key: string | undefined;
  for (const raw of (text ?? "").split("\n")) {
    const line = raw.replace(/\r$/, "");
    if (/^\s*[#;]/.test(line) || line.trim() === "") continue;
    const header = /^\[([^\]]+)\]\s*$/.exec(line);
    if (header) {
      section = new Map();
      sections.set(header[1].trim(), section);
      key = undefined;
    } else if (/^\s/.test(line) && section && key !== undefined) {
      section.set(key, `${section.get(key)}\n${line.trim()}`);
    } else {
      const pair = /^([^=:]+?)\s*[=:]\s*(.*)$/.exec(line);
      if (pair && section) {
        key = pair[1].trim().toLowerCase();
        section.set(key, pair[2].trim());
      }
    }
  }
  return sections;
}

export function basename(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}
