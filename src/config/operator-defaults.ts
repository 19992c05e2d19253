import path from "node:path";
import type { PrivateRegistry } from "../sandbox/egress/private-registry.js";
import type { OperatorToolchain } from "../toolchain/operator.js";
import { NO_BUDGETS, type OperatorBudgets } from "./budgets.js";

/**
 * What the operator's settings (./operator-settings.ts) come to, and what they are when there is no
 * file: apart from the parser, so that a process without PATCHGATE_SETTINGS loads no schema library.
 */

/** Installed dependencies kept across sessions (src/depcache), least recently used evicted beyond this. */
export const DEFAULT_DEPENDENCY_CACHE_MB = 10_240;

export interface OperatorSettings {
  toolchains: OperatorToolchain[];
  /** 0 = no dependency cache. */
  dependencyCacheBytes: number;
  /** Private registries, their credentials read (registry-settings.ts). */
  registries: PrivateRegistry[];
  /** Those credentials in every form they take, redacted by value wherever text leaves the process. */
  registrySecrets: string[];
  /** What installations and repositories may spend, and how many sessions a person may start a day. */
  budgets: OperatorBudgets;
}

export const NO_OPERATOR_SETTINGS: OperatorSettings = {
  toolchains: [],
  dependencyCacheBytes: DEFAULT_DEPENDENCY_CACHE_MB * 1024 * 1024,
  registries: [],
  registrySecrets: [],
  budgets: NO_BUDGETS,
};

/** The runtime's dependency cache under the data directory, or none when the settings turn it off. */
export function dependencyCacheIn(dataDir: string, settings: OperatorSettings): { root: string; maxBytes: number } | undefined {
  return settings.dependencyCacheBytes > 0 ? { root: path.join(dataDir, "dependency-cache"), maxBytes: settings.dependencyCacheBytes } : undefined;
}
