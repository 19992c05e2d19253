import { gitInvocation, isShell, programName } from "./command-facts.js";
import { innerCommands } from "./wrappers.js";

/**
 * Programs whose words do not say what will run: the program they start comes from data the policy
 * cannot see when it judges (a script's text, stdin, a package.json, a config value, the names a
 * search finds). An allow rule for them would vouch for code nobody has read, so no rule can allow
 * them: the evaluator caps them at `ask` (see builtin-rules.ts). Each entry says why, for the human.
 */
export type FromData = { kind: "shell" | "data"; why: string };

const PACKAGE_RUNNERS = new Set(["npm", "npx", "yarn", "yarnpkg", "pnpm", "pnpx", "bun", "bunx", "corepack", "deno"]);
/** Build tools run the recipes of a file in the workspace (Makefile, justfile …), which a session may change. */
const RECIPE_RUNNERS = new Set(["make", "gmake", "bmake", "pmake", "remake", "just", "rake", "ninja"]);
const FIND_EXEC = new Set(["-exec", "-execdir", "-ok", "-okdir"]);
/** git subcommands that run programs given as arguments or configuration. */
const GIT_RUNS = new Set(["submodule", "bisect", "filter-branch", "difftool", "mergetool", "instaweb", "daemon", "web--browse"]);
/** …and options that do: `rebase -x cmd`, `grep -O cmd` (a pager), a config or repository from elsewhere. */
const GIT_RUN_OPTIONS = /^(-x|--exec|-O.*|--open-files-in-pager|--git-dir|--work-tree|--exec-path|--config-env|--namespace)(=.*)?$/;
/**
 * Global options (before the subcommand) that choose another repository: `-C dir` uses the one dir
 * holds, with its config; `--bare` takes the working directory as one. (After the subcommand, `-C`
 * is diff's "find copies".)
 */
const GIT_REPOSITORY_OPTIONS = new Set(["-C", "--bare"]);

export function runsFromData(argv: string[]): FromData | null {
  const program = programName(argv[0]);
  if (isShell(program) || program === "busybox")
    return { kind: "shell", why: `${program} runs shell text, which can build commands at run time ($(…), expansions, eval)` };
  if (program === "xargs") return { kind: "data", why: "xargs builds the command it runs from its input" };
  if (program === "env" && innerCommands(argv).some((i) => i.kind === "text")) return { kind: "data", why: "env -S splits a string into the command it runs" };
  if (program === "find" && argv.some((a) => FIND_EXEC.has(a))) return { kind: "data", why: "find -exec runs a command on every name it finds" };
  if (RECIPE_RUNNERS.has(program)) return { kind: "data", why: `${program} runs the recipes of a file in the workspace, which the session may have changed` };
  if (PACKAGE_RUNNERS.has(program)) return { kind: "data", why: `${program} runs scripts and binaries named in the repository (package.json, node_modules)` };
  if (program === "git") {
    const { subcommand, args, configs } = gitInvocation(argv);
    const globals = argv.slice(1, argv.length - args.length - (subcommand === null ? 0 : 1));
    if (configs.length > 0 || argv.some((a) => GIT_RUN_OPTIONS.test(a)) || globals.some((a) => GIT_REPOSITORY_OPTIONS.has(a)))
      return { kind: "data", why: "git options such as -c, -C, --git-dir, --exec, -O name configuration or programs to run" };
    if (subcommand !== null && GIT_RUNS.has(subcommand)) return { kind: "data", why: `git ${subcommand} runs programs given as arguments or configuration` };
  }
  return null;
}
