import { missing, npmRegistryReachable, type Layout } from "./layout-run.js";

/** The repository config of a layout whose setup installs its devDependencies from the npm registry. */
export const NPM_CONFIG = "setup: npm install --no-audit --no-fund\ntest: npm test\nsandbox:\n  network_for_setup: true\ntimeouts:\n  setup_seconds: 900\n";

export function packageJson(name: string, test: string, devDependencies: Record<string, string>, extra: object = {}): string {
  return JSON.stringify({ name, version: "1.0.0", private: true, scripts: { test }, devDependencies, ...extra }, null, 2) + "\n";
}

/** Skips (one line) offline, fails under CI, when the registry does not answer for the layout's runner. */
export function registryMissing(spec: string): boolean {
  return !npmRegistryReachable(spec) && missing(`the npm registry (npm view ${spec} failed)`);
}

export type { Layout };
