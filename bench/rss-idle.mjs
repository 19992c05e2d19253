// One process of rss_idle (bench/rss.ts starts it): plain JavaScript run by plain node, as `npm start`
// runs the compiled app, with no loader in the process (tsx, which the TypeScript benches need, costs
// each module it loads, and the two sides load very different amounts). `bare`: a Probot app that does
// nothing; `patchgate`: the compiled app (PATCHGATE_BENCH_BUILD/index.js) configured from the
// environment. Both serve webhooks on loopback; prints one JSON line, the RSS in bytes after a full GC.
import { generateKeyPairSync } from "node:crypto";
import { createServer } from "node:http";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { createNodeMiddleware, createProbot } from "probot";

const { privateKey } = generateKeyPairSync("rsa", {
  modulusLength: 2048,
  privateKeyEncoding: { type: "pkcs8", format: "pem" },
  publicKeyEncoding: { type: "spki", format: "pem" },
});
const env = { APP_ID: "1", PRIVATE_KEY: privateKey, WEBHOOK_SECRET: "rss-secret", LOG_LEVEL: "fatal" };
const bare = (app) => void app.on("issue_comment.created", async () => {});
const appFn = process.argv[2] === "bare" ? bare : (await import(pathToFileURL(path.join(process.env.PATCHGATE_BENCH_BUILD, "index.js")).href)).default;
const middleware = await createNodeMiddleware(appFn, { probot: createProbot({ env }), webhooksPath: "/api/github/webhooks" });
const server = createServer((req, res) => void middleware(req, res, () => res.writeHead(404).end()));
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
for (let i = 0; i < 3; i++) {
  await new Promise((r) => setTimeout(r, 50));
  globalThis.gc();
}
console.log(JSON.stringify({ idle: process.memoryUsage().rss }));
process.exit(0);
