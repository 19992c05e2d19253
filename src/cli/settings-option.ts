import { join } from "node:path";
import type { ResumeOptions } from "../agent/runtime-options.js";
import { dependencyCacheIn } from "../config/operator-defaults.js";
import { OperatorSettingsError, operatorSettingsFrom } from "../config/operator-settings.js";
import { hostFacts } from "../toolchain/host-facts.js";
import { processOperatorEnv, type OperatorEnv } from "../config/operator-env.js";
import type { PrivateRegistry } from "../sandbox/egress/private-registry.js";
import { UsageError } from "./usage-error.js";

/**
 * The operator's part of a CLI session's sandbox: `--settings <file>` (else PATCHGATE_SETTINGS) for
 * extra toolchains and private registries (their credentials read now), the host as toolchain
 * resolution sees it, and the per-session cache under the data directory. A broken settings file
 * (a registry's missing credential among them) is a usage error naming the field.
 */
export function sandboxFromCli(
  flag: string | undefined,
  dataDir: string,
  env: OperatorEnv = processOperatorEnv(),
): Pick<ResumeOptions, "toolchains" | "host" | "cacheRoot" | "dependencyCache"> & { registries: PrivateRegistry[] } {
  const host = hostFacts({ dataDir });
  try {
    const settings = operatorSettingsFrom(flag ?? env.PATCHGATE_SETTINGS, host.protectedDirs);
    return {
      toolchains: settings.toolchains,
      host,
      cacheRoot: join(dataDir, "cache"),
      dependencyCache: dependencyCacheIn(dataDir, settings),
      registries: settings.registries,
    };
  } catch (e) {
    if (OperatorSettingsError.isInstance(e)) throw new UsageError(e.message);
    throw e;
  }
}
