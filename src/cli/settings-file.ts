import type { OperatorSettings } from "../config/operator-defaults.js";
import type { OperatorEnv } from "../config/operator-env.js";
import { OperatorSettingsError, operatorSettingsFrom } from "../config/operator-settings.js";
import { UsageError } from "./usage-error.js";

/** The operator's settings file of a CLI command; a broken one is a usage error naming the field. */
export function settingsFromCli(flag: string | undefined, protectedDirs: readonly string[], env: OperatorEnv): OperatorSettings {
  try {
    return operatorSettingsFrom(flag ?? env.PATCHGATE_SETTINGS, protectedDirs);
  } catch (e) {
    if (OperatorSettingsError.isInstance(e)) throw new UsageError(e.message);
    throw e;
  }
}
