import { BUILTIN_RULE } from "./builtin-rules.js";
import { programName } from "./shell/command-facts.js";
import * as danger from "./shell/dangerous-commands.js";
import { isAssignment } from "./shell/wrappers.js";
import { isNetworkInstall } from "./shell/network-installs.js";
import { PROTECTED_PATH_GLOBS } from "./path-confinement.js";
import { gitReadOnly } from "./shell/git-read-only.js";
import * as readOnly from "./shell/read-only-commands.js";
import { tokenize } from "./shell/shell-tokens.js";
import type { AllowCommand, PolicyRule } from "./types.js";

/**
 * The policy a session runs with when the repository says nothing more (DESIGN §3). Order matters only
 * among rules of equal strictness (the first one names the decision); strictest always wins.
 */
export const RULE = {
  ALLOW_READ: "allow:read",
  ALLOW_META: "allow:meta",
  ASK_WRITE: "ask:write",
  DENY_PROTECTED_PATH: "deny:protected-path",
  ALLOW_TEST_COMMAND: "allow:test-command",
  ALLOW_SETUP_COMMAND: "allow:setup-command",
  ALLOW_READ_ONLY_COMMAND: "allow:read-only-command",
  ALLOW_FIND: "allow:find-read-only",
  ALLOW_RG: "allow:rg-read-only",
  ALLOW_GIT_READ: "allow:git-read-only",
  ALLOW_WRAPPER: "allow:wrapper",
  DENY_PRIVILEGE: "deny:privilege-escalation",
  DENY_RM_OUTSIDE: "deny:rm-outside-workspace",
  DENY_CHMOD_OUTSIDE: "deny:chmod-chown-outside-workspace",
  DENY_GIT_PUSH: "deny:git-push",
  DENY_NETWORK_INSTALL: "deny:network-install",
  DENY_DD_DEVICE: "deny:dd-to-device",
  DENY_MKFS: "deny:mkfs",
  DENY_FORK_BOMB: "deny:fork-bomb",
  DENY_GIT_CONFIG_EXEC: "deny:git-config-exec",
  DENY_READ_SECRETS: "deny:read-secrets",
  ASK_PRINT_ENV: "ask:print-env",
  /** Built into the evaluator (it needs the whole pipeline), listed here so every id is in one place. */
  DENY_DOWNLOAD_TO_SHELL: BUILTIN_RULE.DOWNLOAD_TO_SHELL,
} as const;

/** Ids of rules made from `.github/patchgate.yml` command prefixes. */
const repoAllowRuleId = (prefix: string) => `allow:repo-command:${prefix}`;
const repoDenyRuleId = (prefix: string) => `deny:repo-command:${prefix}`;

export interface DefaultRuleOptions {
  testCommand?: string;
  setupCommand?: string;
  allowCommands?: AllowCommand[];
  denyCommands?: string[];
  protectedPaths?: string[];
}

const cmd = (id: string, decision: PolicyRule["decision"], command: NonNullable<PolicyRule["command"]>, description: string): PolicyRule => ({
  id,
  decision,
  kind: "command",
  command,
  description,
});

/** An allow for a program that only reads: it runs with the workspace mounted read-only. */
const reader = (id: string, command: NonNullable<PolicyRule["command"]>, description: string): PolicyRule => ({
  ...cmd(id, "allow", command, description),
  readOnly: true,
});

/**
 * A configured command as plain words (`make deploy`): as a deny, a prefix of argv; as an allow, exactly
 * those words plus the extra words its `extra_args` globs admit. A line with operators or a
 * `NAME=value` in front is not an argv: as a deny it still applies to an explicit shell whose text is
 * exactly that line; as an allow it is dropped, since an allowance we cannot state exactly must not be
 * guessed. Programs that run what data says (make, npm scripts, xargs, sh …) ask whatever an entry allows.
 */
function prefixRule(prefix: string, decision: "allow" | "deny", extraArgs?: string[]): PolicyRule | null {
  const id = decision === "allow" ? repoAllowRuleId(prefix) : repoDenyRuleId(prefix);
  const description = `.github/patchgate.yml policy.${decision}_commands`;
  let words: string[] | null = null;
  try {
    const tokens = tokenize(prefix);
    if (tokens.every((t) => t.kind === "word")) words = tokens.map((t) => t.value);
  } catch {
    words = null;
  }
  if (words === null || isAssignment(words[0])) return decision === "deny" ? cmd(id, "deny", { exact: prefix }, description) : null;
  const matcher = { program: [programName(words[0])], argsPrefix: words.slice(1), ...(extraArgs === undefined ? {} : { extraArgs }) };
  return cmd(id, decision, matcher, description);
}

export function defaultRules(opts: DefaultRuleOptions = {}): PolicyRule[] {
  const rules: PolicyRule[] = [
    {
      id: RULE.DENY_PROTECTED_PATH,
      decision: "deny",
      kind: "write",
      paths: [...PROTECTED_PATH_GLOBS, ...(opts.protectedPaths ?? [])],
      description: "git internals, CI workflows, submodules, Patchgate config",
    },
    cmd(RULE.DENY_PRIVILEGE, "deny", { program: ["sudo", "su", "doas", "pkexec"] }, "no privilege escalation"),
    cmd(RULE.DENY_RM_OUTSIDE, "deny", { program: ["rm"], test: danger.rmOutsideWorkspace }, "rm of /, ~, $HOME, absolute or .. paths outside the workspace"),
    cmd(
      RULE.DENY_CHMOD_OUTSIDE,
      "deny",
      { program: ["chmod", "chown", "chgrp"], test: danger.permissionsOutsideWorkspace },
      "permission changes outside the workspace",
    ),
    cmd(RULE.DENY_GIT_PUSH, "deny", { program: ["git"], test: danger.gitPush }, "Patchgate pushes, the agent never does"),
    cmd(RULE.DENY_NETWORK_INSTALL, "deny", { test: isNetworkInstall }, "dependency installs use the network; setup is a separate step"),
    cmd(RULE.DENY_DD_DEVICE, "deny", { program: ["dd"], test: danger.ddToDevice }, "dd writing to a device"),
    cmd(RULE.DENY_MKFS, "deny", { test: danger.makesFilesystem }, "making filesystems"),
    cmd(RULE.DENY_FORK_BOMB, "deny", { test: danger.forkBomb }, "a function that pipes itself into itself"),
    cmd(RULE.DENY_GIT_CONFIG_EXEC, "deny", { program: ["git"], test: danger.gitConfigExec }, "git config keys that run programs (hooksPath, fsmonitor, …)"),
    cmd(RULE.DENY_READ_SECRETS, "deny", { test: danger.readsSecrets }, "credential stores and other processes' environments"),
  ];
  for (const prefix of opts.denyCommands ?? []) rules.push(prefixRule(prefix, "deny")!);
  rules.push(
    { id: RULE.ASK_WRITE, decision: "ask", kind: "write", description: "a human approves writes" },
    // The sandbox clears the environment, so printing it should reveal nothing; a human still sees it.
    cmd(RULE.ASK_PRINT_ENV, "ask", { program: ["env", "printenv"], test: readOnly.printsEnvironment }, "printing the environment"),
    { id: RULE.ALLOW_READ, decision: "allow", kind: "read" },
    { id: RULE.ALLOW_META, decision: "allow", kind: "meta" },
  );
  if (opts.testCommand) rules.push(cmd(RULE.ALLOW_TEST_COMMAND, "allow", { exact: opts.testCommand }, "the configured test command"));
  // The runtime runs setup itself (with network when configured); re-running an offline setup is routine.
  // A networked one stays denied by deny:network-install, which is stricter.
  if (opts.setupCommand) rules.push(cmd(RULE.ALLOW_SETUP_COMMAND, "allow", { exact: opts.setupCommand }, "the configured setup command"));
  for (const entry of opts.allowCommands ?? []) {
    const rule = typeof entry === "string" ? prefixRule(entry, "allow") : prefixRule(entry.command, "allow", entry.extra_args);
    if (rule) rules.push(rule);
  }
  rules.push(
    reader(RULE.ALLOW_READ_ONLY_COMMAND, { program: readOnly.PLAIN_READERS }, "read-only commands"),
    reader(RULE.ALLOW_FIND, { program: ["find"], test: readOnly.findReadOnly }, "find without -exec/-delete/-fprint"),
    reader(RULE.ALLOW_RG, { program: ["rg"], test: readOnly.rgReadOnly }, "ripgrep without --pre/--hostname-bin"),
    reader(RULE.ALLOW_GIT_READ, { program: ["git"], test: gitReadOnly }, "git status/diff/log/show of the workspace, listed options only"),
    // The wrapper is read-only only if what it runs is too: each inner command is judged as a part.
    reader(RULE.ALLOW_WRAPPER, { program: readOnly.WRAPPERS, test: readOnly.wrapperWithCommand }, "timeout/nice/env/stdbuf …: the command inside is judged"),
  );
  return rules;
}
