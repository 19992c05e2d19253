import { execFileSync } from "node:child_process";

/**
 * For tests that install from the npm registry. Asked with npm itself, so the registry and proxy
 * settings are the ones an install will use. Unreachable: the test prints one line and returns
 * early, except under PATCHGATE_CI (set by .ci/run), where it fails.
 */
export function npmRegistryOrSkip(spec: string, version: string): boolean {
  let seen = "";
  try {
    seen = execFileSync("npm", ["view", "--fetch-retries=0", spec, "version"], {
      encoding: "utf8",
      timeout: 30_000,
      stdio: ["ignore", "pipe", "ignore"],
    }).trim();
  } catch {
    // Unreachable, or no such package: the same answer.
  }
  if (seen === version) return true;
  const name = expect.getState().currentTestName ?? "a test";
  if (process.env.PATCHGATE_CI) throw new Error(`the npm registry is unreachable (npm view ${spec}), and "${name}" must run in CI`);
  console.log(`skipped: "${name}" needs the npm registry (npm view ${spec} failed)`);
  return false;
}
