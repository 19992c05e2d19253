/**
 * Paths fixed by Patchgate itself that the policy judges by. They live here, below config/ and
 * sandbox/ which use them too, so that the policy needs nothing from the layers above it.
 */

/** The repository's Patchgate configuration: read by config/, and a setup input (it names the setup command). */
export const REPO_CONFIG_PATH = ".github/patchgate.yml";

/** Where the sandbox mounts the workspace: commands start there, so the policy resolves their relative paths against it. */
export const SANDBOX_WORKSPACE = "/workspace";
