// The fake GitHub lives under src/demo so that `npm run demo` can use it too; tests import it from here.
export * from "../../src/demo/fakes/github-server.js";
export * from "../../src/demo/fakes/github-state.js";
export * from "../../src/demo/fakes/payloads.js";
export * from "../../src/demo/fakes/webhook-sender.js";
