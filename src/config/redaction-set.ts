import { secretsFromEnv } from "../safety/secrets.js";
import type { OperatorSettings } from "./operator-defaults.js";

/**
 * The values redacted by value from everything a process shows, posts, signs or exports: the
 * secret-looking variables of its environment, every form of every private registry's credential
 * (from a variable or a file of the operator's: only the settings say they are secret), and what else
 * the caller holds (an MCP server's credentials, the signing key). The app and the CLI both build
 * their list here, so a credential the one redacts the other does too.
 */
export function redactionSet(
  env: Readonly<Record<string, string | undefined>>,
  settings: Pick<OperatorSettings, "registrySecrets">,
  more: readonly string[] = [],
): string[] {
  return [...new Set([...secretsFromEnv(env), ...settings.registrySecrets, ...more])];
}
