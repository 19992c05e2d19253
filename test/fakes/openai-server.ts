// The fake lives under src/demo so that `npm run demo` can use it too; tests import it from here.
export * from "../../src/demo/fakes/openai-server.js";
