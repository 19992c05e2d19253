import { vulnerabilityCheck, type VulnerabilityCategoryFlags } from "@simple-git/argv-parser";
import type { GitAuth } from "./types.js";
import { hostEnvironment } from "../process/index.js";
import { FatalError } from "../errors/index.js";

/**
 * Passed on every call (as `-c`, first on argv), overriding whatever the clone's
 * .git/config says. The agent's test commands can write into the workspace, so repo-level hooks or
 * fsmonitor would run their code on the host, outside the sandbox. Excludes/attributes files in $HOME
 * would make "ignored" and the tree hash depend on the machine. protocol.file.allow is left at git's
 * default ("user"): cloning a local path works, and nothing we clone recurses into submodules, which
 * that default exists to restrict.
 */
export const HARDENING_CONFIG = [
  "core.hooksPath=/dev/null",
  "core.fsmonitor=false",
  "credential.helper=",
  "core.askPass=",
  "core.excludesFile=/dev/null",
  "core.attributesFile=/dev/null",
  "submodule.recurse=false",
];

/**
 * The guard (simple-git's argv parser, refuseUnsafe below) refuses any call that sets one of these,
 * because a value chosen by an attacker would run a program. Each opt-in is safe here for the same reason: the values are constants in this file that
 * switch the feature OFF (or point it at /dev/null), and they come first on argv or in the env we
 * build, never from repo content. A category also admits its siblings (ConfigPaths: -C, --git-dir;
 * Pager: core.pager; AskPass: GIT_ASKPASS): callers in src/workspace pass none of them. Everything
 * else (alias, editor, diff/filter drivers, ssh command, url rewrite, include, …) stays blocked, so
 * such a `-c` on argv or variable in the env is refused before git starts.
 */
export function unsafeOptIns(auth: boolean): Partial<VulnerabilityCategoryFlags> {
  return {
    allowUnsafeHooksPath: true, // core.hooksPath=/dev/null: no hook in .git/hooks or elsewhere runs
    allowUnsafeFsMonitor: true, // core.fsmonitor=false: no fsmonitor program runs
    allowUnsafeCredentialHelper: true, // credential.helper= : clears helpers, none is ever asked
    allowUnsafeAskPass: true, // core.askPass= : no askpass program; with GIT_TERMINAL_PROMPT=0, no prompt
    allowUnsafeConfigPaths: true, // GIT_CONFIG_GLOBAL=/dev/null: ~/.gitconfig is not read
    allowUnsafePager: true, // GIT_PAGER=cat: never a pager, whatever the config says
    // GIT_CONFIG_COUNT carries the auth header (see gitEnv); only calls with auth need it.
    ...(auth ? { allowUnsafeConfigEnvCount: true } : {}),
  };
}

/** Only what git needs: the server's own secrets (API keys, the app's private key) stay out of git's env. */
const INHERITED = [
  "PATH",
  "HOME",
  "TMPDIR",
  "HTTPS_PROXY",
  "https_proxy",
  "HTTP_PROXY",
  "http_proxy",
  "NO_PROXY",
  "no_proxy",
  "SSL_CERT_FILE",
  "SSL_CERT_DIR",
  "GIT_SSL_CAINFO",
];

/**
 * The complete environment of a git call (git.ts adds only GIT_TEST_DISALLOW_ABBREVIATED_OPTIONS):
 * nothing of the host's environment reaches git but the names below.
 */
export function gitEnv(extra: Record<string, string> | undefined, auth: GitAuth | undefined): Record<string, string> {
  const env: Record<string, string> = {};
  const host = hostEnvironment();
  for (const k of INHERITED) if (host[k] !== undefined) env[k] = host[k];
  Object.assign(env, {
    LC_ALL: "C", // stable messages: diff --stat's summary line is parsed
    GIT_TERMINAL_PROMPT: "0", // no credential prompt can hang a worker
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_PAGER: "cat",
    ...extra,
  });
  if (auth) {
    // Config from the environment has command-line scope: git never writes it to .git/config, and
    // unlike `-c` it is not visible in the process list.
    Object.assign(env, { GIT_CONFIG_COUNT: "1", GIT_CONFIG_KEY_0: "http.extraHeader", GIT_CONFIG_VALUE_0: auth.header });
  }
  return env;
}

/** Refuses, before git starts, a call whose argv or env sets anything in a category not opted into. */
export function refuseUnsafe(argv: readonly string[], env: Record<string, string>, optIns: Partial<VulnerabilityCategoryFlags>): void {
  const refused = vulnerabilityCheck(argv, env).filter((v) => optIns[v.category] !== true);
  if (refused.length > 0) throw new GitRefusedError(refused.map((v) => v.message).join("; "));
}

/** A git call the guard refused: a caller bug or an attack, never something to retry. */
class GitRefusedError extends FatalError {
  readonly kind = "unsafe_git_call";
}
