import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { caBundleMount, SANDBOX_CA_BUNDLE } from "../ca-bundle.js";
import { caBundleEnv } from "../env-policy.js";
import type { PreparedRun } from "../prepare-run.js";
import type { Mount } from "../toolchain-binding.js";
import type { SandboxResult } from "../types.js";
import { allowEntryFromUrl, parseAllowEntry, type AllowEntry } from "./allow-rule.js";
import { hostNetworks, systemLookup, type Lookup } from "./destination.js";
import { startEgressProxy, type EgressDecision } from "./egress-proxy.js";
import { EGRESS_DIR, FORWARDER_SOURCE, forwardedArgv, proxyEnv, REGISTRY_SOCKET_NAME } from "./forwarder.js";
import { clientConfig, NPMRC_NAME, type PrivateRegistry } from "./private-registry.js";
import { registryUrls } from "./registries.js";
import type { RegistryClientFiles } from "./registry-client-files.js";
import { startRegistryGateway, type GatewayOptions, type RegistryGateway } from "./registry-gateway.js";

/**
 * A networked run (the setup step) as both backends do it: its own proxy on a fresh socket, the
 * socket's directory bound at EGRESS_DIR, the command behind the forwarder, the proxy variables set,
 * the operator's CA bundle bound in and named, and what the proxy refused appended to stderr so the
 * setup's outcome says why a fetch failed. With the operator's private registries, also their
 * gateway (registry-gateway.ts) on a second socket, and the package managers pointed at it.
 * A run without network gets none of it, but for the registries' client files (cargo's config):
 * what setup fetched from a registry is found offline under that registry's name.
 */
export interface EgressOptions {
  /** `sandbox.allow_hosts` of the repository config. */
  allowHosts?: readonly string[];
  /** false: `allowHosts` alone, without any package registry, public or private (a session's granted hosts). */
  packageRegistries?: boolean;
  /** The node that runs the forwarder inside the sandbox. */
  node: string;
  /**
   * Host path of the CA bundle made at start (ca-bundle.ts), bound read-only and named by every
   * tool's CA variable. Only networked runs get it: a run without network makes no TLS connection.
   */
  caBundle?: string | null;
  /** The operator's private registries (operator settings): reached through the gateway, with their credentials added on the host. */
  registries?: readonly PrivateRegistry[];
  /** The session's GitHub installation token: the credential of registries declared with `github_app`. */
  installationToken?: string;
  /**
   * The operator's private destinations (private-destination.ts): names and ports the proxy and the
   * gateway may connect to on a private address, once the allow list or a registry names them.
   */
  privateDestinations?: readonly AllowEntry[];
  /** The registries' client configuration files, bound into every run, networked or not. */
  clientFiles?: RegistryClientFiles;
  /** For tests; the host's resolver otherwise. */
  lookup?: Lookup;
}

/** What the operator gives every networked run of a backend: the CA bundle, the private registries and the private destinations. */
export type EgressSettings = Pick<EgressOptions, "caBundle" | "registries" | "privateDestinations">;

interface RegistrySide {
  gateway: RegistryGateway | null;
  env: Record<string, string>;
}

/** The gateway on `dir`'s second socket and the client settings that point at it. */
async function registrySide(
  dir: string,
  opts: EgressOptions,
  rules: Pick<GatewayOptions, "hostNetworks" | "lookup" | "privateDestinations">,
): Promise<RegistrySide> {
  const registries = opts.packageRegistries === false ? [] : (opts.registries ?? []);
  if (registries.length === 0) return { gateway: null, env: {} };
  const ca = opts.caBundle ? await readFile(opts.caBundle, "utf8") : undefined;
  const gateway = await startRegistryGateway(path.join(dir, REGISTRY_SOCKET_NAME), { ...rules, registries, ca, installationToken: opts.installationToken });
  const config = clientConfig(registries);
  if (config.npmrc !== null) await writeFile(path.join(dir, NPMRC_NAME), config.npmrc, { mode: 0o444 });
  return { gateway, env: config.env };
}

async function allowList(workspace: string, allowHosts: readonly string[] = [], packageRegistries = true): Promise<AllowEntry[]> {
  const fromRegistries = packageRegistries ? (await registryUrls(workspace)).map(allowEntryFromUrl) : [];
  const fromConfig = allowHosts.map(parseAllowEntry);
  return [...fromRegistries, ...fromConfig].filter((e): e is AllowEntry => e !== null);
}

const REFUSED = "patchgate-egress: refused";

function refusalNotice(decisions: readonly EgressDecision[]): string {
  const lines = new Set(decisions.filter((d) => !d.allowed).map((d) => `${REFUSED} ${d.method} ${d.host}:${d.port}: ${d.reason}\n`));
  return [...lines].join("");
}

/** The `host:port`s a networked run's notice says the proxy refused, each once, in order. */
export function refusedHostsIn(stderr: string): string[] {
  const hosts = stderr.split("\n").flatMap((line) => {
    const m = line.startsWith(`${REFUSED} `) ? /^\S+ (\S+?): /.exec(line.slice(REFUSED.length + 1)) : null;
    return m ? [m[1]] : [];
  });
  return [...new Set(hosts)];
}

export async function withEgress(
  run: PreparedRun,
  opts: EgressOptions,
  body: (run: PreparedRun, mounts: Mount[]) => Promise<SandboxResult>,
): Promise<SandboxResult> {
  const clientMounts = (await opts.clientFiles?.mounts()) ?? [];
  if (!run.network) return body(run, clientMounts);
  const dir = await mkdtemp(path.join(tmpdir(), "patchgate-egress-"));
  try {
    await writeFile(path.join(dir, "forward.cjs"), FORWARDER_SOURCE, { mode: 0o444 });
    const rules = {
      allow: await allowList(run.workspace, opts.allowHosts, opts.packageRegistries !== false),
      hostNetworks: hostNetworks(),
      lookup: opts.lookup ?? systemLookup,
      privateDestinations: opts.privateDestinations ?? [],
    };
    const proxy = await startEgressProxy(path.join(dir, "proxy.sock"), rules);
    let registries: RegistrySide | null = null;
    try {
      registries = await registrySide(dir, opts, rules);
      const ca = opts.caBundle ? { env: caBundleEnv(SANDBOX_CA_BUNDLE), mounts: [caBundleMount(opts.caBundle)] } : { env: {}, mounts: [] };
      const env = { ...run.env, ...proxyEnv(), ...registries.env, ...ca.env };
      const wrapped = { ...run, argv: forwardedArgv(opts.node, run.argv, registries.gateway !== null), env };
      const mounts: Mount[] = [{ kind: "bind", source: dir, path: EGRESS_DIR, readOnly: true }, ...ca.mounts, ...clientMounts];
      const result = await body(wrapped, mounts);
      return { ...result, stderr: result.stderr + refusalNotice([...proxy.decisions, ...(registries.gateway?.decisions ?? [])]) };
    } finally {
      await registries?.gateway?.close();
      await proxy.close();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
