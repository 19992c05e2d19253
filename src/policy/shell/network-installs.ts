import { programName } from "./command-facts.js";

/**
 * Package-manager commands that fetch from the network. The model's commands run without network,
 * and dependency installation is the runtime's separate, policy-gated setup step (DESIGN §3), so these
 * are denied rather than asked: approving one could not make it work, only fail slowly or pull code in.
 * `--offline` variants are denied too: telling them apart is not worth a hole in the rule.
 */

/** Options that take a separate value and may come before a package manager's subcommand. */
const VALUE_OPTIONS = new Set(["--prefix", "-C", "--dir", "-w", "--workspace", "--filter", "--registry", "--cache", "--userconfig", "--cwd"]);

function subcommands(args: string[]): string[] {
  const words: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (VALUE_OPTIONS.has(args[i])) i++;
    else if (!args[i].startsWith("-")) words.push(args[i]);
  }
  return words;
}

const NPM = new Set([
  "install",
  "i",
  "in",
  "ins",
  "inst",
  "insta",
  "instal",
  "isnt",
  "isnta",
  "isntal",
  "isntall",
  "add",
  "ci",
  "clean-install",
  "ic",
  "install-clean",
  "isntall-clean",
  "install-test",
  "it",
  "install-ci-test",
  "cit",
  "update",
  "up",
  "upgrade",
  "udpate",
]);
const YARN = new Set(["add", "install", "upgrade", "up", "dlx"]);
const PNPM = new Set(["add", "install", "i", "update", "up", "upgrade", "dlx"]);
const BUN = new Set(["add", "install", "i", "update", "x"]);
const PIP = new Set(["install", "download"]);
const APT = new Set(["install", "update", "upgrade", "dist-upgrade", "full-upgrade", "reinstall"]);
const GO = new Set(["install", "get"]);

const BY_PROGRAM: Record<string, (words: string[]) => boolean> = {
  npm: (w) => NPM.has(w[0]),
  // Bare `yarn` installs; `yarn global add` too.
  yarn: (w) => w.length === 0 || YARN.has(w[0]) || (w[0] === "global" && w[1] === "add"),
  pnpm: (w) => PNPM.has(w[0]),
  bun: (w) => BUN.has(w[0]),
  "apt-get": (w) => APT.has(w[0]),
  apt: (w) => APT.has(w[0]),
  aptitude: (w) => APT.has(w[0]),
  gem: (w) => w[0] === "install",
  cargo: (w) => w[0] === "install",
  go: (w) => GO.has(w[0]),
  brew: (w) => w[0] === "install" || w[0] === "reinstall" || w[0] === "upgrade",
};

export function isNetworkInstall(argv: string[]): boolean {
  const program = programName(argv[0]);
  const words = subcommands(argv.slice(1));
  if (/^pip\d*(\.\d+)?$/.test(program)) return PIP.has(words[0]);
  // `python -m pip install x`
  if (/^python\d*(\.\d+)?$/.test(program)) {
    const m = argv.indexOf("-m");
    return m > 0 && /^pip\d*$/.test(argv[m + 1] ?? "") && PIP.has(subcommands(argv.slice(m + 2))[0]);
  }
  const check = BY_PROGRAM[program];
  return check !== undefined && check(words);
}
