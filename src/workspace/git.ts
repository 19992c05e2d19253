import { spawn } from "node:child_process";
import type { GitAuth } from "./types.js";
import { WorkspaceError } from "./workspace-error.js";

/** A git exit code is data (STYLE 6): callers decide whether non-zero is an error. */
export interface GitResult {
  exitCode: number | null;
  stdout: string;
  stderr: string;
}

export interface GitCallOptions {
  cwd: string;
  /** Extra variables, e.g. GIT_INDEX_FILE for a throwaway index, or author identity. */
  env?: Record<string, string>;
  auth?: GitAuth;
  signal?: AbortSignal;
  /** Written to stdin (commit messages, patches). */
  input?: string;
}

/**
 * Passed on every call, overriding whatever the clone's .git/config says. The agent's test commands
 * can write into the workspace, so repo-level hooks or fsmonitor would run their code on the host,
 * outside the sandbox. Excludes/attributes files in $HOME would make "ignored" and the tree hash
 * depend on the machine. protocol.file.allow is left at git's default ("user"): cloning a local path
 * works, and nothing we clone recurses into submodules, which that default exists to restrict.
 */
const HARDENING = [
  ["core.hooksPath", "/dev/null"],
  ["core.fsmonitor", "false"],
  ["credential.helper", ""],
  ["core.askPass", ""],
  ["core.excludesFile", "/dev/null"],
  ["core.attributesFile", "/dev/null"],
  ["submodule.recurse", "false"],
].flatMap(([k, v]) => ["-c", `${k}=${v}`]);

/** Only what git needs: the server's own secrets (API keys, the app's private key) stay out of git's env. */
const INHERITED = ["PATH", "HOME", "TMPDIR", "HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy", "NO_PROXY", "no_proxy", "SSL_CERT_FILE", "SSL_CERT_DIR", "GIT_SSL_CAINFO"];

function gitEnv(opts: GitCallOptions): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const k of INHERITED) if (process.env[k] !== undefined) env[k] = process.env[k];
  Object.assign(env, {
    LC_ALL: "C", // stable messages: diff --stat's summary line is parsed
    GIT_TERMINAL_PROMPT: "0", // no credential prompt can hang a worker
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_PAGER: "cat",
    ...opts.env,
  });
  if (opts.auth) {
    // Config from the environment has command-line scope: git never writes it to .git/config, and
    // unlike `-c` it is not visible in the process list.
    Object.assign(env, { GIT_CONFIG_COUNT: "1", GIT_CONFIG_KEY_0: "http.extraHeader", GIT_CONFIG_VALUE_0: opts.auth.header });
  }
  return env;
}

/** Runs git with the hardening flags. Resolves with the exit code; rejects only if git cannot run or is aborted. */
export function git(args: string[], opts: GitCallOptions): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    const child = spawn("git", [...HARDENING, ...args], { cwd: opts.cwd, env: gitEnv(opts), signal: opts.signal });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (b: Buffer) => out.push(b));
    child.stderr.on("data", (b: Buffer) => err.push(b));
    child.on("error", reject);
    child.on("close", (code) => {
      resolve({ exitCode: code, stdout: Buffer.concat(out).toString("utf8"), stderr: Buffer.concat(err).toString("utf8") });
    });
    child.stdin.on("error", () => undefined); // git may exit before reading all input; the exit code says why.
    child.stdin.end(opts.input ?? "");
  });
}

/** For steps that must succeed: returns stdout, or throws a fatal WorkspaceError naming the command. */
export async function gitOk(args: string[], opts: GitCallOptions): Promise<string> {
  const r = await git(args, opts);
  if (r.exitCode !== 0) {
    throw new WorkspaceError("git_failed", `git ${args[0]} failed (exit ${r.exitCode}): ${r.stderr.trim()}`, r.stderr);
  }
  return r.stdout;
}
