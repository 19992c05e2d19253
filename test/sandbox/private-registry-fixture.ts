import { mkdirSync, readdirSync, readFileSync, statSync } from "node:fs";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import type { PrivateRegistry } from "../../src/sandbox/egress/private-registry.js";
import { allowEntryFromUrl } from "../../src/sandbox/egress/allow-rule.js";
import { selectSandbox } from "../../src/sandbox/select.js";
import type { Sandbox, SandboxResult } from "../../src/sandbox/types.js";
import { makeTestCa } from "./test-ca.js";

/**
 * What the private-registry tests share: the search for a credential everywhere the sandbox can see,
 * the sandbox with the operator's registries, and a registry served by the test itself over TLS
 * (the test CA) that answers only requests carrying the expected `Authorization`.
 */

/** Everything a command inside can read that could hold a credential: its environment, every process's argv and environment, npm's user and project config, every file in HOME, /tmp, /run and the session's cache. */
const DUMP = [
  "env",
  "for f in /proc/[0-9]*/cmdline /proc/[0-9]*/environ; do tr '\\0' '\\n' < $f; done 2>/dev/null",
  "cat ~/.npmrc /workspace/.npmrc /.cargo/config.toml 2>/dev/null",
  "find ~ /tmp /run /cache -type f -exec cat {} + 2>/dev/null",
  "true",
].join("; ");

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    const s = statSync(p, { throwIfNoEntry: false });
    return s?.isDirectory() ? filesUnder(p) : s?.isFile() ? [p] : [];
  });
}

/** Runs DUMP in `box` as a networked run on `workspace`: everything the sandbox shows a command, in one output. */
export function dumpSandbox(box: Sandbox, workspace: string, timeoutMs: number): Promise<SandboxResult> {
  return box.run({ argv: ["sh", "-c", DUMP], workspace, timeoutMs, network: true, limits: { maxOutputBytes: 64 * 1024 * 1024 } });
}

/** Where `secret` appears: in the run's output, or in a file under one of `dirs` (the host side of the workspace, the session's cache). */
export function traces(secret: string, result: SandboxResult, ...dirs: string[]): string[] {
  const found = [result.stdout.includes(secret) && "stdout", result.stderr.includes(secret) && "stderr"].filter((x): x is string => !!x);
  for (const f of dirs.flatMap(filesUnder)) if (readFileSync(f).includes(secret)) found.push(f);
  return found;
}

/** The test registries listen on loopback: the operator declares each one's host and port a private destination. */
export async function sandboxWith(registries: PrivateRegistry[], caBundle: string): Promise<Sandbox> {
  const privateDestinations = registries.map((r) => allowEntryFromUrl(r.url)!);
  const chosen = await selectSandbox("bubblewrap", { caBundle, registries, privateDestinations });
  if (chosen.sandbox === null) throw new Error(`bubblewrap unavailable: ${chosen.reason}`);
  return chosen.sandbox;
}

export interface StaticRegistry {
  /** `https://127.0.0.1:<port>` (no trailing slash). */
  origin: string;
  caFile: string;
  /** Every request it got, in order, and whether it carried the credential. */
  seen: { path: string; authorized: boolean }[];
  close(): Promise<void>;
}

/** What the registry answers for a path: a body and its type, or undefined for 404. `origin` is its own. */
export type Answer = (path: string, origin: string) => { type: string; body: string | Buffer } | undefined;

/** A registry of static files over TLS in `dir` (which receives the test CA), answering 401 to any request without `authorization`. */
export async function startStaticRegistry(dir: string, authorization: string, answer: Answer): Promise<StaticRegistry> {
  mkdirSync(dir, { recursive: true });
  const { caFile } = makeTestCa(dir);
  const seen: StaticRegistry["seen"] = [];
  let origin = "";
  const server: Server = createServer({ key: readFileSync(join(dir, "server.key")), cert: readFileSync(join(dir, "server.pem")) }, (req, res) => {
    const authorized = req.headers.authorization === authorization;
    const path = req.url ?? "";
    seen.push({ path, authorized });
    if (!authorized) return void res.writeHead(401, { "www-authenticate": 'Basic realm="corp"' }).end();
    const found = answer(path, origin);
    if (!found) return void res.writeHead(404, { "content-type": "text/plain" }).end("not found\n");
    res.writeHead(200, { "content-type": found.type }).end(found.body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, caFile, seen, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
