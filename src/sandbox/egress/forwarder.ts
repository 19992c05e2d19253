/**
 * The sandbox half of the egress path. A networked setup runs in its own network namespace, which
 * has a loopback and nothing else; the proxy's unix socket is bound in read-only (connecting to a
 * socket needs no write access to the mount). Package managers speak TCP to an HTTP proxy, so a
 * small node program listens on the sandbox's 127.0.0.1:EGRESS_PORT, relays each connection to the
 * socket, and runs the setup command once it listens, exiting as that command did. The operator's
 * private registries (registry-gateway.ts), when there are any, get a second listener on
 * REGISTRY_PORT, relayed the same way to the gateway's own socket.
 *
 * It is plain CommonJS for the node inside the sandbox (the one running Patchgate, or the image's),
 * written next to the socket for each run.
 */
export const EGRESS_DIR = "/run/patchgate-egress";
const EGRESS_SOCKET = `${EGRESS_DIR}/proxy.sock`;
const FORWARDER = `${EGRESS_DIR}/forward.cjs`;
/** Squid's port, the one people expect a proxy on; the sandbox's loopback is its own, so nothing else holds it. */
const EGRESS_PORT = 3128;
/** Where the sandbox's package managers find the operator's private registries, without a credential. */
export const REGISTRY_PORT = 3129;
export const REGISTRY_SOCKET_NAME = "registries.sock";

export const FORWARDER_SOURCE = `"use strict";
const net = require("net");
const { spawn } = require("child_process");
const [pairs, ...argv] = process.argv.slice(2);
const fail = (code, what) => { process.stderr.write("patchgate-egress: " + what + "\\n"); process.exit(code); };
const relay = (socketPath) => (client) => {
  const up = net.connect(socketPath);
  const done = () => { client.destroy(); up.destroy(); };
  client.on("error", done); up.on("error", done);
  client.on("close", done); up.on("close", done);
  client.pipe(up); up.pipe(client);
};
const listen = ([port, socketPath]) => new Promise((resolve) => {
  const server = net.createServer(relay(socketPath));
  server.on("error", (e) => fail(125, "cannot listen on 127.0.0.1:" + port + ": " + e.message));
  server.listen(Number(port), "127.0.0.1", resolve);
});
Promise.all(pairs.split(",").map((p) => listen(p.split("=")))).then(() => {
  const child = spawn(argv[0], argv.slice(1), { stdio: "inherit" });
  child.on("error", (e) => fail(127, argv[0] + ": " + e.message));
  child.on("exit", (code, signal) => {
    if (signal === null) process.exit(code);
    // Die the same way, so the limits (SIGXCPU, SIGXFSZ) read the same from outside.
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
    setTimeout(() => process.exit(128 + (require("os").constants.signals[signal] || 0)), 100);
  });
});
`;

const PROXY_URL = `http://127.0.0.1:${EGRESS_PORT}`;
// The sandbox's own loopback (a test server the setup starts) is not the host's: it stays direct.
const NO_PROXY = "localhost,127.0.0.1,::1";

/** What every package manager reads to find a proxy; none of it is a secret. */
export function proxyEnv(): Record<string, string> {
  return {
    HTTP_PROXY: PROXY_URL,
    HTTPS_PROXY: PROXY_URL,
    http_proxy: PROXY_URL,
    https_proxy: PROXY_URL,
    NO_PROXY,
    no_proxy: NO_PROXY,
    npm_config_proxy: PROXY_URL,
    npm_config_https_proxy: PROXY_URL,
    npm_config_noproxy: NO_PROXY,
    YARN_HTTP_PROXY: PROXY_URL,
    YARN_HTTPS_PROXY: PROXY_URL,
    CARGO_HTTP_PROXY: PROXY_URL,
    PIP_PROXY: PROXY_URL,
  };
}

/**
 * The setup command behind the forwarder: `node forward.cjs PORT=SOCKET[,PORT=SOCKET] argv…`, the
 * registries' listener only when the operator declares private registries.
 */
export function forwardedArgv(node: string, argv: readonly string[], registries = false): string[] {
  const pairs = [`${EGRESS_PORT}=${EGRESS_SOCKET}`, ...(registries ? [`${REGISTRY_PORT}=${EGRESS_DIR}/${REGISTRY_SOCKET_NAME}`] : [])];
  return [node, FORWARDER, pairs.join(","), ...argv];
}
