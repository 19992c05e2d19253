import { REPO_CONFIG_PATH } from "../config/repo-config.js";
import type { RepoSetup } from "./repo-setup.js";

/**
 * The line a run starts with, once the clone is read: what will install the dependencies and with
 * which network, what will test, and where it runs — so a setup that cannot work is seen before it
 * is waited for, with the setting that decides it.
 */
export function runLine(setup: RepoSetup): string {
  const network = setup.config.sandbox.network_for_setup
    ? "with network: package registries only (sandbox.network_for_setup)"
    : `without network (sandbox.network_for_setup: false in ${REPO_CONFIG_PATH})`;
  const setupPart = setup.config.setup ? `setup: ${setup.config.setup}, ${network}` : "setup: none";
  const source = setup.testCommandSource ? ` (${setup.testCommandSource})` : "";
  return `${setupPart} · tests: ${setup.testCommand ?? "none found"}${source} · ${setup.sandboxNote}`;
}
