/**
 * A run without network (every test run and command, and a setup the repository keeps offline) still
 * meets package managers that try the registry: npm, for one, retries an unreachable registry with
 * back-off for every package, minutes before it gives up. Each is told up front that there is no
 * network, so it answers from what is installed or cached, or fails at once with its own offline
 * error. Set by the runtime on top of the caller's variables, so a command cannot undo it.
 */
export const OFFLINE_ENV: Readonly<Record<string, string>> = {
  // npm and pnpm: the cache only (ENOTCACHED when something is missing), never the registry.
  npm_config_offline: "true",
  // yarn berry: no network at all.
  YARN_ENABLE_NETWORK: "0",
  YARN_ENABLE_OFFLINE_MODE: "1",
  // pip: no index to ask ("No matching distribution"); uv: its offline mode.
  PIP_NO_INDEX: "1",
  UV_OFFLINE: "1",
  // cargo: the local registry cache only.
  CARGO_NET_OFFLINE: "true",
  // go: no module proxy; a missing module is an error at once ("module lookup disabled by GOPROXY=off").
  GOPROXY: "off",
};
