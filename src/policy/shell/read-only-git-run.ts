import { programName } from "./command-facts.js";

/**
 * How a command the policy allowed as a reader runs when it is git: with Patchgate's own settings,
 * first on argv, switching off every program git could take from configuration. The policy allows
 * only the workspace's own repository (git-read-only.ts); this holds even if that judgement is wrong,
 * whoever wrote the configuration git finds (a nested repository, a dotfile in HOME).
 */

/** `-c` settings: command-line scope, above every config file git reads. */
export const READ_ONLY_GIT_CONFIG = [
  "core.pager=cat",
  "core.fsmonitor=false",
  "core.hooksPath=/dev/null",
  "core.sshCommand=false",
  "core.askPass=",
  "credential.helper=",
  "core.attributesFile=/dev/null",
  // A bare repository found by walking up from the working directory (one committed in the
  // workspace) is refused; only one named explicitly would be used, and no reader names one.
  "safe.bareRepository=explicit",
  // No fetch of any kind: a partial clone's lazy fetch would run the transport's programs.
  "protocol.allow=never",
  "submodule.recurse=false",
  "status.submoduleSummary=false",
  "diff.submodule=short",
  // `--format=%G?` or log.showSignature verifies signatures with a configured program.
  "log.showSignature=false",
  "gpg.program=false",
  "gpg.ssh.program=false",
  "gpg.x509.program=false",
];

/** Subcommands that would run diff.external or a textconv driver, and the options that stop them. */
const DIFFING = new Set(["diff", "log", "show"]);
const NO_DIFF_PROGRAMS = ["--no-ext-diff", "--no-textconv"];

/** Global options of git that take the next word as their value. */
const GLOBAL_WITH_VALUE = new Set(["-C", "-c", "--git-dir", "--work-tree", "--namespace", "--exec-path", "--config-env", "--super-prefix"]);

/**
 * The environment of a reader's run: no system or global config file is read (HOME may hold one a
 * command wrote), never a pager or a prompt, and the settings above for every git the run starts,
 * wherever it sits in argv: GIT_CONFIG_PARAMETERS is how git hands its `-c` settings to the git
 * processes it starts. There diff.external is also set empty, so an external diff fails instead of
 * running (the argv form passes --no-ext-diff, which ignores it).
 */
export const READ_ONLY_GIT_ENV: Readonly<Record<string, string>> = {
  GIT_CONFIG_PARAMETERS: [...READ_ONLY_GIT_CONFIG, "diff.external="].map((c) => `'${c}'`).join(" "),
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_ATTR_NOSYSTEM: "1",
  GIT_PAGER: "cat",
  GIT_TERMINAL_PROMPT: "0",
  GIT_OPTIONAL_LOCKS: "0",
};

/** argv of a reader's run: git gets the settings above; any other program runs as it is. */
export function readOnlyArgv(argv: readonly string[]): string[] {
  if (programName(argv[0]) !== "git") return [...argv];
  let sub = 1;
  while (sub < argv.length && argv[sub].startsWith("-")) sub += GLOBAL_WITH_VALUE.has(argv[sub]) ? 2 : 1;
  const subcommand = argv[sub];
  const config = READ_ONLY_GIT_CONFIG.flatMap((c) => ["-c", c]);
  const extra = subcommand !== undefined && DIFFING.has(subcommand) ? NO_DIFF_PROGRAMS : [];
  return [argv[0], "--no-pager", ...config, ...argv.slice(1, sub + 1), ...extra, ...argv.slice(sub + 1)];
}
