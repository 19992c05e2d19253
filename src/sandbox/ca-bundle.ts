import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { FatalError } from "../errors/index.js";
import type { Mount } from "./toolchain-binding.js";

/**
 * The certificates a networked setup trusts. Behind a TLS-intercepting proxy the registries' TLS is
 * signed by the proxy's own CA, which the host trusts (its system bundle, or NODE_EXTRA_CA_CERTS)
 * and a tool in the sandbox does not: the sandbox clears the environment, and a Node from outside
 * the distribution (the npm registry's, nvm's, corepack's downloads) trusts only its built-in roots.
 *
 * At start the operator's bundle (`PATCHGATE_CA_BUNDLE`), or else the host's NODE_EXTRA_CA_CERTS and
 * system bundle together, is written as one read-only file in the data directory; a networked run
 * gets that file bound read-only at SANDBOX_CA_BUNDLE (egress-run.ts). One file for every tool,
 * because several of them (npm's cafile, pip, OpenSSL's SSL_CERT_FILE) replace their roots with the
 * file they are given rather than add to them: it has to hold the public roots too.
 */

/** Inside the sandbox; a path of its own, so no host directory beside the file is ever visible. */
export const SANDBOX_CA_BUNDLE = "/run/patchgate-ca/ca-bundle.pem";

/** Where distributions keep their bundle of trusted roots: Debian and Alpine, Fedora and RHEL, openSUSE, others. */
const SYSTEM_BUNDLES = ["/etc/ssl/certs/ca-certificates.crt", "/etc/pki/tls/certs/ca-bundle.crt", "/etc/ssl/ca-bundle.pem", "/etc/ssl/cert.pem"];

const BUNDLE_FILE = "ca-bundle.pem";

export class CaBundleError extends FatalError {
  readonly kind = "invalid_ca_bundle";
}

/** Where the certificates come from: the operator's variable, the host's Node variable. */
export interface CaBundleSources {
  PATCHGATE_CA_BUNDLE?: string;
  NODE_EXTRA_CA_CERTS?: string;
}

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[A-Za-z0-9+/=\s]+?-----END CERTIFICATE-----/g;

function pemCertificates(text: string): string[] {
  return (text.match(PEM_CERTIFICATE) ?? []).map((c) => c.replace(/\r\n/g, "\n").trim());
}

/** The certificates of a file a variable names; anything else about it is that variable's error. */
function namedCertificates(variable: string, file: string): string[] {
  if (!path.isAbsolute(file)) throw new CaBundleError(`${variable} must be an absolute path, not ${JSON.stringify(file)}`);
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    throw new CaBundleError(`${variable}: cannot read ${file} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  const certs = pemCertificates(text);
  if (certs.length === 0) throw new CaBundleError(`${variable}: ${file} holds no PEM certificate`);
  return certs;
}

/** The first system bundle that exists and holds certificates; none is no error (a minimal image). */
function systemCertificates(candidates: readonly string[]): string[] {
  for (const file of candidates) {
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch {
      continue;
    }
    const certs = pemCertificates(text);
    if (certs.length > 0) return certs;
  }
  return [];
}

/**
 * The certificates of the bundle, each once: the operator's bundle as it is (it is the whole trust
 * store, so it names the public roots it wants), else the host's NODE_EXTRA_CA_CERTS and its system
 * bundle. A variable naming a missing, unreadable or empty file is a CaBundleError naming both.
 */
export function caCertificates(sources: CaBundleSources, systemBundles: readonly string[] = SYSTEM_BUNDLES): string[] {
  if (sources.PATCHGATE_CA_BUNDLE) return [...new Set(namedCertificates("PATCHGATE_CA_BUNDLE", sources.PATCHGATE_CA_BUNDLE))];
  const extra = sources.NODE_EXTRA_CA_CERTS ? namedCertificates("NODE_EXTRA_CA_CERTS", sources.NODE_EXTRA_CA_CERTS) : [];
  return [...new Set([...extra, ...systemCertificates(systemBundles)])];
}

/**
 * Writes the bundle as `<dataDir>/ca-bundle.pem`, read-only, and returns its path; null when there
 * are no certificates at all. Written beside and renamed into place, so a process starting beside
 * another (the app and its workers) never binds a half-written file.
 */
export function writeCaBundle(dataDir: string, sources: CaBundleSources, systemBundles: readonly string[] = SYSTEM_BUNDLES): string | null {
  const certs = caCertificates(sources, systemBundles);
  if (certs.length === 0) return null;
  mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, BUNDLE_FILE);
  const partial = `${file}.${process.pid}.partial`;
  writeFileSync(partial, `${certs.join("\n")}\n`, { mode: 0o444 });
  renameSync(partial, file);
  return file;
}

/** The bundle's file bound read-only at its sandbox path. */
export function caBundleMount(hostFile: string): Mount {
  return { kind: "bind", source: hostFile, path: SANDBOX_CA_BUNDLE, readOnly: true };
}
