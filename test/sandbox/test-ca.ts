import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * A certificate authority made for one test, as a TLS-intercepting proxy has its own: `ca.pem` (the
 * root) and a server certificate for 127.0.0.1 and localhost signed by it, in `dir` as
 * `server.key` and `server-chain.pem` (the leaf, then the root, as such a proxy presents them).
 * node:crypto cannot sign X.509, so the openssl command makes them.
 */
export function makeTestCa(dir: string): { caFile: string } {
  const openssl = (...args: string[]) => execFileSync("openssl", args, { cwd: dir, stdio: ["ignore", "ignore", "pipe"] });
  openssl(
    "req",
    "-x509",
    "-newkey",
    "rsa:2048",
    "-nodes",
    "-keyout",
    "ca.key",
    "-out",
    "ca.pem",
    "-days",
    "2",
    "-subj",
    "/CN=Patchgate test intercepting CA",
    "-addext",
    "basicConstraints=critical,CA:TRUE",
    "-addext",
    "keyUsage=critical,keyCertSign,cRLSign",
  );
  openssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=127.0.0.1");
  writeFileSync(join(dir, "server.ext"), "subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\nbasicConstraints=CA:FALSE\n");
  openssl(
    "x509",
    "-req",
    "-in",
    "server.csr",
    "-CA",
    "ca.pem",
    "-CAkey",
    "ca.key",
    "-CAcreateserial",
    "-out",
    "server.pem",
    "-days",
    "2",
    "-extfile",
    "server.ext",
  );
  writeFileSync(join(dir, "server-chain.pem"), readFileSync(join(dir, "server.pem"), "utf8") + readFileSync(join(dir, "ca.pem"), "utf8"));
  return { caFile: join(dir, "ca.pem") };
}
