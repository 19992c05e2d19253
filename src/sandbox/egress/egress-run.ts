import { mkdtemp, rm, writeFile } from "node:fs/promises";
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
import { EGRESS_DIR, FORWARDER_SOURCE, forwardedArgv, proxyEnv } from "./forwarder.js";
import { registryUrls } from "./registries.js";

/**
 * A networked run (the setup step) as both backends do it: its own proxy on a fresh socket, the
 * socket's directory bound at EGRESS_DIR, the command behind the forwarder, the proxy variables set,
 * the operator's CA bundle bound in and named, and what the proxy refused appended to stderr so the
 * setup's outcome says why a fetch failed.
 * A run without network gets none of it.
 */
export interface EgressOptions {
  /** `sandbox.allow_hosts` of the repository config. */
  allowHosts?: readonly string[];
  /** false: `allowHosts` alone, without the package registries (a session's granted hosts). */
  registries?: boolean;
  /** The node that runs the forwarder inside the sandbox. */
  node: string;
  /**
   * Host path of the CA bundle made at start (ca-bundle.ts), bound read-only and named by every
   * tool's CA variable. Only networked runs get it: a run without network makes no TLS connection.
   */
  caBundle?: string | null;
  /** For tests; the host's resolver otherwise. */
  lookup?: Lookup;
}

async function allowList(workspace: string, allowHosts: readonly string[] = [], registries = true): Promise<AllowEntry[]> {
  const fromRegistries = registries ? (await registryUrls(workspace)).map(allowEntryFromUrl) : [];
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
  if (!run.network) return body(run, []);
  const dir = await mkdtemp(path.join(tmpdir(), "patchgate-egress-"));
  try {
    await writeFile(path.join(dir, "forward.cjs"), FORWARDER_SOURCE, { mode: 0o444 });
    const rules = {
      allow: await allowList(run.workspace, opts.allowHosts, opts.registries !== false),
      hostNetworks: hostNetworks(),
      lookup: opts.lookup ?? systemLookup,
    };
    const proxy = await startEgressProxy(path.join(dir, "proxy.sock"), rules);
    try {
      const ca = opts.caBundle ? { env: caBundleEnv(SANDBOX_CA_BUNDLE), mounts: [caBundleMount(opts.caBundle)] } : { env: {}, mounts: [] };
      const wrapped = { ...run, argv: forwardedArgv(opts.node, run.argv), env: { ...run.env, ...proxyEnv(), ...ca.env } };
      const result = await body(wrapped, [{ kind: "bind", source: dir, path: EGRESS_DIR, readOnly: true }, ...ca.mounts]);
      return { ...result, stderr: result.stderr + refusalNotice(proxy.decisions) };
    } finally {
      await proxy.close();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
