// The git remote lives under src/demo so that `npm run demo` can use it too; tests import it from here.
export * from "../../src/demo/fakes/git-http-remote.js";
export * from "../../src/demo/fakes/bare-repo.js";
