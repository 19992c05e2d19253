import { generateKeyPairSync } from "node:crypto";
import { createServer } from "node:http";
import { createNodeMiddleware, createProbot } from "probot";

/**
 * The app as `npm start` boots it (src/index.ts: tracing, resource limits, the deps from the
 * environment, the handlers, the boot resume), serving webhooks on loopback, then idle. Prints
 * `idle` once it is, and exits. Configured by the caller's environment (PATCHGATE_DATA_DIR…).
 */
const { privateKey } = generateKeyPairSync("rsa", {
  modulusLength: 2048,
  privateKeyEncoding: { type: "pkcs8", format: "pem" },
  publicKeyEncoding: { type: "spki", format: "pem" },
});
const env = { APP_ID: "1", PRIVATE_KEY: privateKey, WEBHOOK_SECRET: "idle-secret", LOG_LEVEL: "fatal" } as NodeJS.ProcessEnv;
const app = (await import("../../src/index.js")).default;
const middleware = await createNodeMiddleware(app, { probot: createProbot({ env }), webhooksPath: "/api/github/webhooks" });
const server = createServer((req, res) => void middleware(req, res, () => res.writeHead(404).end()));
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
process.stdout.write("idle\n");
process.exit(0);
