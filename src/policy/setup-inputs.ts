import { REPO_CONFIG_PATH } from "./well-known-paths.js";

/**
 * The setup inputs: the files that decide what the repository's setup command (e.g. `npm ci`) runs
 * and fetches. Setup is the only step that may get the host's network, so it gets it only when these
 * files are the maintainer's, i.e. equal to the default branch's (workspace/setup-inputs.ts compares).
 * The set errs on the side of including: a file wrongly counted costs a follow-up session its network
 * for setup; a file wrongly left out lets code nobody reviewed run online.
 *
 * - the repository config, which names the setup command;
 * - package manifests, lockfiles and package-manager configuration, at any depth (workspaces);
 * - anything under a package manager's own code directory (`.yarn/` holds plugins and releases it runs);
 * - the files the setup command names (`sh scripts/setup.sh` → `scripts/setup.sh`), and the Makefile
 *   when it runs make;
 * - the files the root package.json's install scripts name (`"postinstall": "node tools/fetch.js"`).
 *
 * Not followed: files a named script includes in turn. The session's own changes never get the
 * network anyway (runs/test-setup.ts): this set is about the tree the session starts on.
 */
const MANIFESTS = new Set([
  // JavaScript
  "package.json",
  "package-lock.json",
  "npm-shrinkwrap.json",
  "yarn.lock",
  "pnpm-lock.yaml",
  "pnpm-workspace.yaml",
  ".pnpmfile.cjs",
  "bun.lock",
  "bun.lockb",
  "bunfig.toml",
  ".npmrc",
  ".yarnrc",
  ".yarnrc.yml",
  "binding.gyp",
  // Python
  "pyproject.toml",
  "setup.py",
  "setup.cfg",
  "Pipfile",
  "Pipfile.lock",
  "poetry.lock",
  "uv.lock",
  "pip.conf",
  // Go, Rust, Ruby, PHP
  "go.mod",
  "go.sum",
  "Cargo.toml",
  "Cargo.lock",
  "Gemfile",
  "Gemfile.lock",
  "composer.json",
  "composer.lock",
]);

/** requirements.txt, requirements-dev.txt, constraints.txt and the like (pip -r / -c files). */
const PIP_LISTS = /^(requirements|constraints)([-_.][\w.-]*)?\.(txt|in)$/;

const CODE_DIRS = [".yarn/"];

const MAKEFILES = ["Makefile", "makefile", "GNUmakefile"];

/** The npm lifecycle scripts an install runs. */
export const INSTALL_SCRIPTS = ["preinstall", "install", "postinstall", "prepublish", "preprepare", "prepare", "postprepare"];

/**
 * The words of a command line that could name a file of the repository, normalised to repository
 * paths (`./scripts/a.sh` → `scripts/a.sh`). A loose split on blanks, quotes and shell operators is
 * enough: a word that names no file matches nothing.
 */
export function commandWords(command: string): string[] {
  return command
    .split(/[\s;&|()<>`"'=]+/)
    .map((w) => w.replace(/^(\.\/)+/, ""))
    .filter((w) => w !== "" && !w.startsWith("-") && !w.startsWith("/"));
}

/** Everything that names a setup input beyond the fixed set: the setup command and the root package's install scripts. */
export function namedBySetup(setupCommand: string, installScripts: readonly string[] = []): string[] {
  const words = [setupCommand, ...installScripts].flatMap(commandWords);
  const runsMake = words.some((w) => w === "make" || w.endsWith("/make"));
  return [...new Set([...words, ...(runsMake ? MAKEFILES : [])])];
}

/** Whether `path` (repository-relative, `/`-separated) is a setup input; `named` comes from namedBySetup. */
export function isSetupInput(path: string, named: readonly string[]): boolean {
  if (path === REPO_CONFIG_PATH) return true;
  const base = path.slice(path.lastIndexOf("/") + 1);
  if (MANIFESTS.has(base) || PIP_LISTS.test(base)) return true;
  if (CODE_DIRS.some((d) => path.startsWith(d) || path.includes(`/${d}`))) return true;
  return named.includes(path);
}
