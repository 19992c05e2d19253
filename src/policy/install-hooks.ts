import path from "node:path";
import type { ExecutableConfigHit } from "../session/types.js";
import { executableConfigPath } from "./executable-config.js";
import { INSTALL_SCRIPTS } from "./setup-inputs.js";

/**
 * Manifests that are ordinary files except for a few keys a tool executes on its own: a change to one
 * of those keys is executable configuration, a change elsewhere (a dependency, a version) is not.
 */
interface ManifestKeys {
  tool: string;
  when: string;
  /** Key paths into the parsed JSON. */
  keys: readonly (readonly string[])[];
}

const scripts = (names: readonly string[]) => names.map((n) => ["scripts", n]);

const MANIFESTS: Readonly<Record<string, ManifestKeys>> = {
  "package.json": {
    tool: "npm / yarn / pnpm (install) and git hook managers",
    when: "install lifecycle scripts run on every install, before any test (prepack/postpack for a git dependency); hook keys run on commit",
    keys: [
      // `dependencies` runs whenever npm changed node_modules.
      ...scripts([...INSTALL_SCRIPTS, "dependencies", "prepack", "postpack"]),
      ["simple-git-hooks"],
      ["husky"],
      ["gitHooks"],
      ["pre-commit"],
      ["lint-staged"],
    ],
  },
  "composer.json": {
    tool: "Composer",
    when: "event scripts run on install and update; plugins load on every command",
    keys: [
      ...scripts([
        "pre-install-cmd",
        "post-install-cmd",
        "pre-update-cmd",
        "post-update-cmd",
        "pre-autoload-dump",
        "post-autoload-dump",
        "post-root-package-install",
        "post-create-project-cmd",
      ]),
      ["config", "allow-plugins"],
    ],
  },
};

/** A manifest whose executable keys are judged by content (package.json, composer.json, at any depth). */
export function isManifest(rel: string): boolean {
  return Object.hasOwn(MANIFESTS, path.posix.basename(rel));
}

/** What `text` holds at a key path; an absent file, bad JSON or a missing key are all `undefined`. */
function at(text: string | null, key: readonly string[]): string | undefined {
  if (text === null) return undefined;
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    // A manifest that does not parse runs nothing; should the old one not parse, every key counts as new.
    return undefined;
  }
  for (const k of key) v = v !== null && typeof v === "object" && Object.hasOwn(v, k) ? (v as Record<string, unknown>)[k] : undefined;
  return v === undefined ? undefined : JSON.stringify(v);
}

/** The executable keys of a manifest that differ between `before` and `after` (null: no file). */
export function changedExecutableKeys(rel: string, before: string | null, after: string | null): string[] {
  const manifest = MANIFESTS[path.posix.basename(rel)];
  if (!manifest) return [];
  return manifest.keys.filter((k) => at(before, k) !== at(after, k)).map((k) => k.join("."));
}

/**
 * Whether changing `rel` from `before` to `after` (null: absent) touches executable configuration: a
 * path of the table (or the repository's extra globs), or an executable key of a manifest.
 */
export function judgeExecutableChange(rel: string, before: string | null, after: string | null, extra: readonly string[] = []): ExecutableConfigHit | null {
  const byPath = executableConfigPath(rel, extra);
  if (byPath) return byPath;
  const keys = changedExecutableKeys(rel, before, after);
  if (keys.length === 0) return null;
  const manifest = MANIFESTS[path.posix.basename(rel)];
  return { path: rel, tool: manifest.tool, when: `${manifest.when} (changed: ${keys.join(", ")})` };
}

/** The manifest rows for the documentation: file name, keys, tool. */
export function manifestRows(): { file: string; keys: string[]; tool: string; when: string }[] {
  return Object.entries(MANIFESTS).map(([file, m]) => ({ file, keys: m.keys.map((k) => k.join(".")), tool: m.tool, when: m.when }));
}
