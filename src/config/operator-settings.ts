import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { parse as parseYaml } from "yaml";
import { z } from "zod";
import { operatorRefusal } from "../toolchain/operator.js";
import { DEFAULT_DEPENDENCY_CACHE_MB, NO_OPERATOR_SETTINGS, type OperatorSettings } from "./operator-defaults.js";
import { FatalError } from "../errors/index.js";
import { hostEnvironment } from "../process/index.js";
import { RegistrySchema, RegistrySettingError, resolveRegistries } from "./registry-settings.js";
import { BudgetsSchema, toBudgets } from "./budget-settings.js";

/**
 * The operator's settings: one YAML (or JSON) file on the host, named by `PATCHGATE_SETTINGS` or the
 * CLI's `--settings`. What widens the sandbox lives here and never in a repository's
 * `.github/patchgate.yml`. A broken file is an OperatorSettingsError naming the field.
 */
const ToolchainSchema = z
  .object({
    bin: z.string().describe("Directory put on PATH inside the sandbox, e.g. /opt/zig/bin."),
    dir: z.string().optional().describe("Directory bound read-only; default: the parent of a `bin` directory, else `bin` itself."),
    name: z
      .string()
      .regex(/^[A-Za-z0-9._-]{1,40}$/)
      .optional()
      .describe("Name in the ledger and the check run; default: the directory's name."),
  })
  .strict();

const SettingsSchema = z
  .object({
    sandbox: z
      .object({
        toolchains: z.array(ToolchainSchema).default([]),
        dependency_cache_mb: z
          .number()
          .int()
          .min(0)
          .default(DEFAULT_DEPENDENCY_CACHE_MB)
          .describe("Size of the cross-session dependency cache; 0 turns it off."),
        registries: z.array(RegistrySchema).default([]).describe("Private registries reached through the gateway, credentials on the host."),
      })
      .strict()
      .default({ toolchains: [], dependency_cache_mb: DEFAULT_DEPENDENCY_CACHE_MB, registries: [] }),
    budgets: BudgetsSchema,
  })
  .strict();

export class OperatorSettingsError extends FatalError {
  readonly kind = "invalid_operator_settings";
}

/**
 * Reads and checks the file; `protectedDirs` are the directories no toolchain may contain (HOME…);
 * `env` is where the registries' credential variables are read.
 */
export function loadOperatorSettings(
  file: string,
  protectedDirs: readonly string[],
  env: Readonly<Record<string, string | undefined>> = hostEnvironment(),
): OperatorSettings {
  let raw: unknown;
  try {
    raw = parseYaml(readFileSync(file, "utf8")) ?? {};
  } catch (e) {
    throw new OperatorSettingsError(`operator settings ${file}: ${(e as Error).message.split("\n")[0]}`);
  }
  const parsed = SettingsSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new OperatorSettingsError(`operator settings ${file}: \`${issue.path.join(".") || "(top level)"}\` ${issue.message}`);
  }
  parsed.data.sandbox.toolchains.forEach((t, i) => {
    const field = `sandbox.toolchains.${i}`;
    for (const key of ["bin", "dir"] as const) {
      const p = t[key];
      if (p === undefined) continue;
      if (!path.isAbsolute(p)) throw new OperatorSettingsError(`operator settings ${file}: \`${field}.${key}\` must be an absolute path: ${p}`);
      if (!existsSync(p) || !statSync(p).isDirectory())
        throw new OperatorSettingsError(`operator settings ${file}: \`${field}.${key}\` is not a directory: ${p}`);
    }
    const refusal = operatorRefusal(t, protectedDirs);
    if (refusal) throw new OperatorSettingsError(`operator settings ${file}: \`${field}\`: ${refusal}`);
  });
  let resolved: ReturnType<typeof resolveRegistries>;
  try {
    resolved = resolveRegistries(parsed.data.sandbox.registries, env);
  } catch (e) {
    if (RegistrySettingError.isInstance(e)) throw new OperatorSettingsError(`operator settings ${file}: \`${e.field}\` ${e.message}`);
    throw e;
  }
  return {
    toolchains: parsed.data.sandbox.toolchains,
    dependencyCacheBytes: parsed.data.sandbox.dependency_cache_mb * 1024 * 1024,
    registries: resolved.registries,
    registrySecrets: resolved.secrets,
    budgets: toBudgets(parsed.data.budgets),
  };
}

/** `PATCHGATE_SETTINGS` (or a CLI flag's file), or no settings. */
export function operatorSettingsFrom(file: string | undefined, protectedDirs: readonly string[]): OperatorSettings {
  return file ? loadOperatorSettings(file, protectedDirs) : NO_OPERATOR_SETTINGS;
}
