/**
 * A repository whose test needs a host: `net.js` asks for http://grant-target.test/ through the egress
 * proxy when the run has one (HTTP_PROXY), and fails when the run has no network. The repository's own
 * config names the host in `sandbox.allow_hosts`: that reaches the setup step only, never a test run.
 */
const NET_JS = `const http = require("node:http");
const proxy = process.env.HTTP_PROXY;
if (!proxy) {
  http.get("http://grant-target.test/", () => process.exit(0)).on("error", (e) => {
    console.log("no network: getaddrinfo", e.code);
    process.exit(1);
  });
} else {
  const u = new URL(proxy);
  http
    .get({ host: u.hostname, port: u.port, path: "http://grant-target.test/" }, (r) => {
      let body = "";
      r.on("data", (d) => (body += d));
      r.on("end", () => {
        console.log("the proxy answered", r.statusCode, body.trim());
        process.exit(0);
      });
    })
    .on("error", (e) => {
      console.log("proxy error", e.code);
      process.exit(1);
    });
}
`;

export const GRANT_REPO: Record<string, string> = {
  "net.js": NET_JS,
  "slow.js": 'setTimeout(() => console.log("slow but done"), 2500);\n',
  ".github/patchgate.yml": "test: node net.js\nsandbox:\n  allow_hosts: [grant-target.test]\n",
};
