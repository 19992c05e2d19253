import { EGRESS_DIR, REGISTRY_PORT } from "./forwarder.js";

/**
 * A registry the operator declares (operator settings, `sandbox.registries`), as the sandbox's two
 * halves see it. Inside, it is a plain loopback endpoint, `http://127.0.0.1:REGISTRY_PORT/<name>/`,
 * without a credential, and the package manager's configuration points there (clientConfig). On the
 * host, the gateway (registry-gateway.ts) re-originates each request to `url` over TLS with the
 * credential. Nothing here holds the credential itself: `authorization` is asked for on the host
 * when a request goes out.
 */
export type RegistryKind = "npm" | "pip" | "cargo" | "go";

export interface PrivateRegistry {
  /** Lower-case letters, digits and dashes: its path on the loopback endpoint and its name in messages. */
  name: string;
  kind: RegistryKind;
  /** The real registry, https: npm's registry root, pip's simple index, cargo's sparse index, Go's module proxy. */
  url: string;
  /** npm: the `@scope` it serves; without one it is npm's default registry. */
  scope?: string;
  /** go: the module path patterns it serves (GOPRIVATE and GONOSUMDB). */
  modules?: readonly string[];
  /** cargo: crates.io is replaced by it (source replacement); otherwise it is a named registry. */
  replacesCratesIo?: boolean;
  /** The `Authorization` header's value, made on the host for each request (a token may rotate). */
  authorization: (from: CredentialContext) => Promise<string>;
}

/** What a credential may be made from besides the operator's own: the session's GitHub installation token (GitHub Packages). */
interface CredentialContext {
  installationToken?: string;
}

/**
 * The loopback endpoint stands for the registry's whole origin (`/<name>/x` is `https://host/x`), so
 * that URLs the registry gives out beside its base (cargo's `dl`, a tarball path) map back too.
 */
export function loopbackOrigin(name: string): string {
  return `http://127.0.0.1:${REGISTRY_PORT}/${name}`;
}

/** What a registry's URL is called inside the sandbox: its path under the loopback origin. */
function loopbackUrl(r: Pick<PrivateRegistry, "name" | "url">): string {
  return `${loopbackOrigin(r.name)}${new URL(r.url).pathname}`;
}

/** Inside the sandbox: the package managers' settings, and the files of those that have no environment form. */
export interface ClientConfig {
  env: Record<string, string>;
  /** npm's global config, for scoped registries (NPMRC_NAME in EGRESS_DIR); null without any. */
  npmrc: string | null;
  /** The text of a cargo config.toml (source replacement has no environment form); null without cargo registries. */
  cargoConfig: string | null;
}

export const NPMRC_NAME = "npmrc";

/**
 * The default registry by the environment, which outranks a repository's .npmrc. A scope's key
 * (`@corp:registry`) is no variable name a shell passes on, so scopes go in npm's global config,
 * the lowest of its files: a repository's or HOME's .npmrc naming the scope's registry wins over it.
 */
function npmEnv(registries: readonly PrivateRegistry[]): Record<string, string> {
  const fallback = registries.find((r) => !r.scope);
  const scoped = registries.some((r) => r.scope);
  return {
    ...(fallback ? { npm_config_registry: loopbackUrl(fallback) } : {}),
    ...(scoped ? { npm_config_globalconfig: `${EGRESS_DIR}/${NPMRC_NAME}` } : {}),
  };
}

function npmrc(registries: readonly PrivateRegistry[]): string | null {
  const scoped = registries.filter((r) => r.scope);
  return scoped.length === 0 ? null : scoped.map((r) => `${r.scope}:registry=${loopbackUrl(r)}\n`).join("");
}

function pipEnv(registries: readonly PrivateRegistry[]): Record<string, string> {
  if (registries.length === 0) return {};
  const [first, ...rest] = registries.map(loopbackUrl);
  const extra: Record<string, string> = rest.length > 0 ? { PIP_EXTRA_INDEX_URL: rest.join(" "), UV_EXTRA_INDEX_URL: rest.join(" ") } : {};
  // PIP_PROXY (proxyEnv) sends pip to the proxy past NO_PROXY; empty, pip uses HTTPS_PROXY, which
  // NO_PROXY keeps off the loopback endpoint.
  return { PIP_INDEX_URL: first, UV_DEFAULT_INDEX: first, PIP_PROXY: "", ...extra };
}

function goEnv(registries: readonly PrivateRegistry[]): Record<string, string> {
  if (registries.length === 0) return {};
  const modules = [...new Set(registries.flatMap((r) => r.modules ?? []))].join(",");
  // GOPRIVATE keeps the private module paths away from the public checksum database; GONOPROXY=none
  // keeps them on the proxy list (GOPRIVATE alone would fetch them straight from version control).
  const privateModules: Record<string, string> = modules === "" ? {} : { GOPRIVATE: modules, GONOSUMDB: modules, GONOPROXY: "none" };
  return { GOPROXY: [...registries.map(loopbackUrl), "https://proxy.golang.org"].join(","), ...privateModules };
}

function cargoConfig(registries: readonly PrivateRegistry[]): string | null {
  if (registries.length === 0) return null;
  const lines = registries.flatMap((r) => [`[registries.${r.name}]`, `index = "sparse+${loopbackUrl(r)}"`, ""]);
  const replacing = registries.find((r) => r.replacesCratesIo);
  if (replacing) lines.push("[source.crates-io]", `replace-with = "${replacing.name}"`, "");
  return lines.join("\n");
}

/** The settings for every declared registry, by its ecosystem; none of them is a secret. */
export function clientConfig(registries: readonly PrivateRegistry[]): ClientConfig {
  const of = (kind: RegistryKind) => registries.filter((r) => r.kind === kind);
  return {
    env: { ...npmEnv(of("npm")), ...pipEnv(of("pip")), ...goEnv(of("go")) },
    npmrc: npmrc(of("npm")),
    cargoConfig: cargoConfig(of("cargo")),
  };
}
