import { NO_OPERATOR_SETTINGS, type OperatorSettings } from "../config/operator-defaults.js";
import type { OperatorEnv } from "../config/operator-env.js";
import { redactionSet } from "../config/redaction-set.js";
import { hostEnvironment } from "../process/index.js";
import { hostFacts } from "../toolchain/host-facts.js";

/** What a CLI command redacts by value, given the operator's settings: the app's list (config/redaction-set.ts). */
export function cliRedactionSet(settings: Pick<OperatorSettings, "registrySecrets">, env: OperatorEnv): string[] {
  return redactionSet({ ...hostEnvironment(), ...env }, settings);
}

/**
 * What a command that shows a stored session (`show`, `trace`, `list`) redacts by value: the same list
 * as `run`'s, so a registry credential a session's output quoted stays hidden afterwards too. The
 * settings' parser is loaded only when there is a settings file (`--settings`, else PATCHGATE_SETTINGS).
 */
export async function secretsFromCli(flag: string | undefined, dataDir: string, env: OperatorEnv): Promise<string[]> {
  if (!(flag ?? env.PATCHGATE_SETTINGS)) return cliRedactionSet(NO_OPERATOR_SETTINGS, env);
  const { settingsFromCli } = await import("./settings-file.js");
  return cliRedactionSet(settingsFromCli(flag, hostFacts({ dataDir }).protectedDirs, env), env);
}
