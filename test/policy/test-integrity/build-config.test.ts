import { change, found, weakening } from "./weakening.js";

const MAKEFILE = "build:\n\tgo build ./...\n\ntest: build\n\tgo test ./...\n\nlint:\n\tgolangci-lint run\n";

describe("make.test_target", () => {
  test("the test target's recipe changed is found", () => {
    expect(weakening([change("Makefile", MAKEFILE, MAKEFILE.replace("\tgo test ./...", "\tgo test ./... || true"))]).findings).toEqual([
      {
        kind: "test_config_relaxed",
        detector: "make.test_target",
        path: "Makefile",
        message: "the `test` target changed in Makefile",
        lines: ["-build", "-go test ./...", "+build", "+go test ./... || true"],
      },
    ]);
  });

  test("another target changed is not", () => {
    expect(found([change("Makefile", MAKEFILE, MAKEFILE.replace("golangci-lint run", "golangci-lint run --fix"))])).toEqual([]);
  });
});

describe("repo.test_command", () => {
  test("the repository's test command changed is found; the file elsewhere is not read", () => {
    expect(found([change(".github/patchgate.yml", "test: make test\n", "test: make test-fast\n")])).toEqual(["repo.test_command"]);
    expect(found([change("docs/patchgate.yml", "test: make test\n", "test: make test-fast\n")])).toEqual([]);
  });
});

describe("go_rust.test_flags", () => {
  test("`go test -run` narrowing in a script is found", () => {
    expect(found([change("scripts/ci.sh", "#!/bin/sh\ngo test ./...\n", "#!/bin/sh\ngo test -run 'TestAdd$' ./...\n")])).toEqual(["go_rust.test_flags"]);
  });

  test("`cargo test -- --skip` in package.json is found", () => {
    const pkg = (cmd: string) => JSON.stringify({ scripts: { check: cmd } });
    expect(found([change("package.json", pkg("cargo test"), pkg("cargo test -- --skip parser"))])).toEqual(["go_rust.test_flags"]);
  });

  test("`go test -race` added is not narrowing", () => {
    expect(found([change("scripts/ci.sh", "go test ./...\n", "go test -race ./...\n")])).toEqual([]);
  });
});

describe("rust.cargo_test", () => {
  test("`test = false` added to Cargo.toml is found", () => {
    const cargo = '[package]\nname = "calc"\n\n[lib]\npath = "src/lib.rs"\n';
    expect(found([change("Cargo.toml", cargo, `${cargo}test = false\n`)])).toEqual(["rust.cargo_test"]);
  });

  test("a dependency added is not", () => {
    const cargo = '[package]\nname = "calc"\n\n[dependencies]\n';
    expect(found([change("Cargo.toml", cargo, `${cargo}serde = "1"\n`)])).toEqual([]);
  });
});
