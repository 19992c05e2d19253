import { rmSync } from "node:fs";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Mount } from "../toolchain-binding.js";
import { clientConfig, type PrivateRegistry } from "./private-registry.js";

/** Cargo reads the configuration of every directory above the workspace: this one is the sandbox root's. */
const SANDBOX_CARGO_CONFIG = "/.cargo/config.toml";

/** Directories made by this process, removed when it exits: what they hold is no secret, but it is ours alone to leave. */
const made = new Set<string>();
let exitHookSet = false;

function removeAtExit(dir: string): void {
  made.add(dir);
  if (exitHookSet) return;
  exitHookSet = true;
  process.once("exit", () => {
    for (const d of made) rmSync(d, { recursive: true, force: true });
  });
}

/**
 * The registries' client configuration that has no environment form (cargo's config.toml: named
 * registries and source replacement), as a file on the host bound read-only into every run of a
 * sandbox, networked or not. Cargo needs it offline too: without it, a test run after setup knows
 * neither the registry a dependency names nor where setup's download of it is kept. The file holds
 * no credential (private-registry.ts), and its path stays the same for all the sandbox's runs, so a
 * session's long-lived sandbox keeps one layout. Written at the first run that needs it.
 */
export class RegistryClientFiles {
  private cargo: Promise<string> | null = null;

  constructor(private readonly registries: readonly PrivateRegistry[]) {}

  async mounts(): Promise<Mount[]> {
    const text = clientConfig(this.registries).cargoConfig;
    if (text === null) return [];
    // A write that failed is tried again by the next run, not remembered.
    this.cargo ??= this.write(text).catch((e: unknown) => {
      this.cargo = null;
      throw e;
    });
    return [{ kind: "bind", source: await this.cargo, path: SANDBOX_CARGO_CONFIG, readOnly: true }];
  }

  private async write(text: string): Promise<string> {
    const dir = await mkdtemp(path.join(tmpdir(), "patchgate-registries-"));
    removeAtExit(dir);
    const file = path.join(dir, "cargo-config.toml");
    await writeFile(file, text, { mode: 0o444 });
    return file;
  }
}
