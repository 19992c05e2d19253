import { execFileSync, fork, type ChildProcess } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer, type AddressInfo } from "node:net";
import { join } from "node:path";
import { makeTestCa } from "../sandbox/test-ca.js";

/**
 * A real private npm registry for a test: verdaccio as a child process on 127.0.0.1, over TLS with a
 * certificate of a CA the test makes (test-ca.ts), and every package behind authentication (no
 * uplink: what it serves is only what the test publishes). `token` is a user's token, got by
 * logging in as npm does; `publish` puts a package in with the real npm, from the test's side.
 */
export interface PrivateNpmRegistry {
  /** `https://127.0.0.1:<port>/` */
  url: string;
  token: string;
  caFile: string;
  publish(dir: string): void;
  stop(): Promise<void>;
}

const require = createRequire(import.meta.url);

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function config(dir: string, port: number): string {
  return [
    `storage: ${join(dir, "storage")}`,
    `listen: https://127.0.0.1:${port}`,
    "https:",
    `  key: ${join(dir, "server.key")}`,
    `  cert: ${join(dir, "server.pem")}`,
    "auth:",
    "  htpasswd:",
    `    file: ${join(dir, "htpasswd")}`,
    "    max_users: 1",
    "uplinks: {}",
    "packages:",
    "  '**':",
    "    access: $authenticated",
    "    publish: $authenticated",
    "log: { type: stdout, format: json, level: error }",
    "web: { enable: false }",
    "",
  ].join("\n");
}

async function started(child: ChildProcess): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    child.on("message", (m: { verdaccio_started?: boolean }) => m.verdaccio_started && resolve());
    child.once("exit", (code) => reject(new Error(`verdaccio exited with ${code} before it listened`)));
  });
}

/** Logs in as a new user (verdaccio registers it): the token npm would keep in its .npmrc. */
async function login(url: string, ca: string): Promise<string> {
  const { request } = await import("node:https");
  const body = JSON.stringify({ name: "maintainer", password: "correct horse battery" });
  return new Promise<string>((resolve, reject) => {
    const req = request(
      new URL("-/user/org.couchdb.user:maintainer", url),
      { method: "PUT", ca, headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) } },
      (res) => {
        let text = "";
        res.on("data", (d: Buffer) => (text += d.toString()));
        res.on("end", () => {
          const token = (JSON.parse(text) as { token?: string }).token;
          if (res.statusCode === 201 && token) resolve(token);
          else reject(new Error(`verdaccio login: ${res.statusCode} ${text}`));
        });
      },
    );
    req.once("error", reject);
    req.end(body);
  });
}

export async function startPrivateNpmRegistry(dir: string): Promise<PrivateNpmRegistry> {
  mkdirSync(dir, { recursive: true });
  const { caFile } = makeTestCa(dir);
  const port = await freePort();
  writeFileSync(join(dir, "htpasswd"), "");
  writeFileSync(join(dir, "config.yaml"), config(dir, port));
  const bin = join(require.resolve("verdaccio/package.json"), "..", "bin", "verdaccio");
  const child = fork(bin, ["--config", join(dir, "config.yaml")], { stdio: ["ignore", "ignore", "inherit", "ipc"], env: { ...process.env } });
  await started(child);
  const url = `https://127.0.0.1:${port}/`;
  const { readFileSync } = await import("node:fs");
  const token = await login(url, readFileSync(caFile, "utf8"));
  const npmrc = join(dir, "publisher.npmrc");
  writeFileSync(npmrc, `registry=${url}\n//127.0.0.1:${port}/:_authToken=${token}\ncafile=${caFile}\n`);
  return {
    url,
    token,
    caFile,
    publish: (pkg) => {
      // Under `npm test`, npm hands its own settings down as npm_config_* variables, which outrank a
      // userconfig file (a machine's `cafile` among them): the publisher's file alone decides here.
      const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.toLowerCase().startsWith("npm_config_")));
      execFileSync("npm", ["publish", "--userconfig", npmrc, "--registry", url, "--cafile", caFile, "--no-git-checks"], {
        cwd: pkg,
        env,
        stdio: ["ignore", "ignore", "pipe"],
      });
    },
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      // A registry that ignores SIGTERM must not outlive the test file.
      const kill = setTimeout(() => child.kill("SIGKILL"), 10_000);
      await exited;
      clearTimeout(kill);
    },
  };
}
