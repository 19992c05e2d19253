import { createHash } from "node:crypto";
import { open } from "node:fs/promises";
import { ToolchainFetchError } from "./fetch-error.js";

/** What the registry publishes for one version: where its tarball is, and the digest that vouches for it. */
export interface PackageDist {
  version: string;
  tarball: string;
  /** Subresource-integrity form, `sha512-<base64>`. */
  integrity: string;
}

/** The registry's versions of a package, each with its dist; from the abbreviated document npm installs from. */
export async function publishedVersions(registry: string, name: string, signal?: AbortSignal): Promise<PackageDist[]> {
  const url = new URL(encodeURIComponent(name), withSlash(registry));
  const res = await get(url, { accept: "application/vnd.npm.install-v1+json; q=1.0, application/json; q=0.8" }, signal);
  const doc = (await res.json().catch(() => null)) as { versions?: Record<string, { dist?: { tarball?: unknown; integrity?: unknown } }> } | null;
  if (!doc || typeof doc.versions !== "object") throw new ToolchainFetchError("registry", `${url.href} did not answer with a package document`);
  return Object.entries(doc.versions).flatMap(([version, v]) => {
    const { tarball, integrity } = v.dist ?? {};
    return typeof tarball === "string" && typeof integrity === "string" ? [{ version, tarball, integrity }] : [];
  });
}

const SHA512 = /^sha512-([A-Za-z0-9+/]{86}==)$/;
const MAX_BYTES = 512 * 1024 * 1024;

/**
 * Downloads `dist.tarball` to `file` and checks it against `dist.integrity` before anything reads it.
 * Only sha512 is accepted (the registry's older sha1 `shasum` proves nothing), and the tarball must
 * come from the registry's own origin: a document pointing elsewhere is refused, not followed.
 */
export async function downloadVerified(registry: string, dist: PackageDist, file: string, signal?: AbortSignal): Promise<void> {
  const sri = dist.integrity
    .trim()
    .split(/\s+/)
    .find((s) => SHA512.test(s));
  if (!sri) throw new ToolchainFetchError("integrity", `the registry gives no sha512 integrity for ${dist.version} (${clip(dist.integrity)})`);
  const url = new URL(dist.tarball);
  if (url.origin !== new URL(registry).origin)
    throw new ToolchainFetchError("registry", `the tarball of ${dist.version} is at ${url.origin}, not on the registry ${new URL(registry).origin}`);
  const res = await get(url, {}, signal);
  if (!res.body) throw new ToolchainFetchError("registry", `${url.href} answered without a body`);
  const hash = createHash("sha512");
  const out = await open(file, "wx", 0o600);
  let bytes = 0;
  try {
    for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
      bytes += chunk.length;
      if (bytes > MAX_BYTES) throw new ToolchainFetchError("registry", `${url.href} is over ${MAX_BYTES / 1024 / 1024} MB`);
      hash.update(chunk);
      await out.write(chunk);
    }
  } finally {
    await out.close();
  }
  const got = `sha512-${hash.digest("base64")}`;
  if (got !== sri) throw new ToolchainFetchError("integrity", `the tarball of ${dist.version} is ${clip(got)}, the registry publishes ${clip(sri)}`);
}

/** The sha512 of an integrity string (`sha512-…`, possibly among others); null when it has none. */
export function sha512Integrity(integrity: string): string | null {
  return (
    integrity
      .trim()
      .split(/\s+/)
      .find((s) => SHA512.test(s)) ?? null
  );
}

async function get(url: URL, headers: Record<string, string>, signal?: AbortSignal): Promise<Response> {
  if (url.protocol !== "https:" && !isLoopback(url)) throw new ToolchainFetchError("registry", `${url.href} is not an https URL`);
  let res: Response;
  try {
    res = await fetch(url, { headers, signal, redirect: "error" });
  } catch (e) {
    if (signal?.aborted) throw e;
    const cause = (e as { cause?: { code?: string; message?: string } }).cause;
    throw new ToolchainFetchError("registry", `${url.origin} did not answer (${cause?.code ?? cause?.message ?? (e as Error).message})`);
  }
  if (!res.ok) throw new ToolchainFetchError("registry", `${url.href} answered ${res.status}`);
  return res;
}

// A registry on the loopback (a local mirror, a test's registry) may speak plain http; nothing else may.
function isLoopback(url: URL): boolean {
  return url.protocol === "http:" && (url.hostname === "127.0.0.1" || url.hostname === "localhost" || url.hostname === "[::1]");
}

function withSlash(registry: string): string {
  return registry.endsWith("/") ? registry : `${registry}/`;
}

function clip(s: string): string {
  return s.length > 40 ? `${s.slice(0, 24)}…${s.slice(-8)}` : s;
}
