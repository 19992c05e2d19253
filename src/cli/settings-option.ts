import { join } from "node:path";
import type { ResumeOptions } from "../agent/runtime-options.js";
import { dependencyCacheIn } from "../config/operator-defaults.js";
import { hostFacts } from "../toolchain/host-facts.js";
import { processOperatorEnv, type OperatorEnv } from "../config/operator-env.js";
import { PrivateDestinationError, privateDestinationsFrom } from "../config/private-destinations.js";
import type { AllowEntry } from "../sandbox/egress/allow-rule.js";
import type { PrivateRegistry } from "../sandbox/egress/private-registry.js";
import { budgetNotice } from "./budget-notice.js";
import { cliRedactionSet } from "./cli-secrets.js";
import { settingsFromCli } from "./settings-file.js";
import { UsageError } from "./usage-error.js";

/**
 * The operator's part of a CLI session's sandbox: `--settings <file>` (else PATCHGATE_SETTINGS) for
 * extra toolchains and private registries (their credentials read now), PATCHGATE_PRIVATE_DESTINATIONS,
 * the host as toolchain resolution sees it, and the per-session cache under the data directory; and
 * what the command redacts by value, the registries' credentials among it. A broken settings file (a
 * registry's missing credential among them) or a bad private destination is a usage error naming the
 * field or the entry.
 */
export function sandboxFromCli(
  flag: string | undefined,
  dataDir: string,
  env: OperatorEnv = processOperatorEnv(),
): Pick<ResumeOptions, "toolchains" | "host" | "cacheRoot" | "toolchainWalks" | "dependencyCache"> & {
  registries: PrivateRegistry[];
  privateDestinations: AllowEntry[];
  secrets: string[];
  budgetNotice: string | null;
} {
  const host = hostFacts({ dataDir });
  const settings = settingsFromCli(flag, host.protectedDirs, env);
  return {
    toolchains: settings.toolchains,
    host,
    cacheRoot: join(dataDir, "cache"),
    toolchainWalks: join(dataDir, "toolchain-walks"),
    dependencyCache: dependencyCacheIn(dataDir, settings),
    registries: settings.registries,
    privateDestinations: cliPrivateDestinations(env),
    secrets: cliRedactionSet(settings, env),
    budgetNotice: budgetNotice(settings.budgets),
  };
}

function cliPrivateDestinations(env: OperatorEnv): AllowEntry[] {
  try {
    return privateDestinationsFrom(env);
  } catch (e) {
    if (PrivateDestinationError.isInstance(e)) throw new UsageError(e.message);
    throw e;
  }
}
