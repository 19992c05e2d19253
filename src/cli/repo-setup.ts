import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { REPO_CONFIG_PATH, type RepoConfig } from "../config/repo-config.js";
import { parseRepoConfig } from "../config/load-repo-config.js";
import { detectTestCommand } from "../config/detect-test-command.js";
import { selectSandbox, type SandboxSelection } from "../sandbox/select.js";
import type { EgressSettings } from "../sandbox/egress/egress-run.js";
import type { Sandbox } from "../sandbox/types.js";
import { UsageError } from "./usage-error.js";

export interface RepoSetup {
  config: RepoConfig;
  testCommand?: string;
  testCommandSource?: string;
  sandbox: Sandbox | null;
  sandboxNote: string;
}

/**
 * Reads `.github/patchgate.yml` from the clone (its checked-out default branch), the test command and
 * a sandbox, whose networked runs get `egress`: the CA bundle (ca-bundle-option.ts), the operator's
 * private registries and private destinations (settings-option.ts). `early` is the `auto` choice
 * asked with the same `egress` before the clone existed (`selectEarly`): taken when the repository
 * asks for `auto`, left otherwise.
 */
export async function repoSetup(root: string, egress: EgressSettings = {}, early?: Promise<SandboxSelection>): Promise<RepoSetup> {
  const text = await readFile(join(root, REPO_CONFIG_PATH), "utf8").catch(() => null);
  const parsed = parseRepoConfig(text);
  if (!parsed.ok) throw new UsageError(`${REPO_CONFIG_PATH} is invalid: ${parsed.error.message}`);
  const config = parsed.config;
  const detected = config.test ? null : await detectTestCommand(root);
  const testCommand = config.test ?? detected?.command;
  const testCommandSource = config.test ? REPO_CONFIG_PATH : detected?.source;
  const chosen = early && config.sandbox.backend === "auto" ? await early : await selectSandbox(config.sandbox.backend, egress);
  const sandboxNote = chosen.sandbox ? `sandbox: ${chosen.sandbox.backend}` : `no sandbox: ${chosen.reason} (commands will be refused)`;
  return {
    config: detected?.setup && !config.setup ? { ...config, setup: detected.setup } : config,
    testCommand,
    testCommandSource,
    sandbox: chosen.sandbox,
    sandboxNote,
  };
}

/**
 * The `auto` sandbox choice started now, beside the clone: most repositories name no backend, and the
 * probes (docker's engine, a bubblewrap sandbox running `true`) need nothing from the clone.
 */
export function selectEarly(egress: EgressSettings): Promise<SandboxSelection> {
  const early = selectSandbox("auto", egress);
  // Nobody may await it (a clone that fails): its failure is met again by whoever does.
  early.catch(() => undefined);
  return early;
}
