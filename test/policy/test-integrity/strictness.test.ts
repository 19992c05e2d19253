import { change, found, weakening } from "./weakening.js";

const TSCONFIG = '{\n  // the compiler\n  "compilerOptions": {\n    "strict": true,\n    "noUncheckedIndexedAccess": true,\n  },\n}\n';

describe("ts.strict", () => {
  test("strict turned off in a tsconfig with comments and trailing commas is found", () => {
    expect(weakening([change("tsconfig.json", TSCONFIG, TSCONFIG.replace('"strict": true', '"strict": false'))]).findings).toEqual([
      {
        kind: "strictness_lowered",
        detector: "ts.strict",
        path: "tsconfig.json",
        message: "`strict` turned off in tsconfig.json",
        lines: ['-"strict": true', '+"strict": false'],
      },
    ]);
  });

  test("a flag removed is off; a flag added or another option changed is not", () => {
    expect(found([change("tsconfig.build.json", TSCONFIG, TSCONFIG.replace('    "noUncheckedIndexedAccess": true,\n', ""))])).toEqual(["ts.strict"]);
    expect(
      found([
        change("tsconfig.json", TSCONFIG, TSCONFIG.replace('"strict": true,', '"strict": true,\n    "noImplicitOverride": true,\n    "target": "es2022",')),
      ]),
    ).toEqual([]);
  });
});

describe("js.eslint", () => {
  test("a rule turned off, or files ignored, in eslint.config.js is found", () => {
    const cfg = 'export default [\n  { ignores: ["dist/"] },\n  { rules: { "no-unused-vars": "error" } },\n];\n';
    expect(found([change("eslint.config.js", cfg, cfg.replace('"no-unused-vars": "error"', '"no-unused-vars": "off"'))])).toEqual(["js.eslint"]);
    expect(found([change("eslint.config.js", cfg, cfg.replace('["dist/"]', '["dist/", "src/legacy/**"]'))])).toEqual(["js.eslint"]);
  });

  test("a rule made an error is not", () => {
    const rc = '{ "rules": { "eqeqeq": "warn" } }';
    expect(found([change(".eslintrc.json", rc, rc.replace('"warn"', '"error"'))])).toEqual([]);
  });
});

describe("py.typecheck", () => {
  test("mypy strict off, ignore_errors on, pyright lowered and ruff ignores grown are found", () => {
    expect(found([change("mypy.ini", "[mypy]\nstrict = True\n", "[mypy]\nstrict = False\n")])).toEqual(["py.typecheck"]);
    expect(found([change("pyproject.toml", "[tool.mypy]\nignore_errors = false\n", "[tool.mypy]\nignore_errors = true\n")])).toEqual(["py.typecheck"]);
    expect(found([change("pyrightconfig.json", '{"typeCheckingMode": "strict"}', '{"typeCheckingMode": "basic"}')])).toEqual(["py.typecheck"]);
    expect(found([change("ruff.toml", '[lint]\nignore = ["E501"]\n', '[lint]\nignore = ["E501", "F401"]\n')])).toEqual(["py.typecheck"]);
  });

  test("a stricter setting is not", () => {
    expect(found([change("pyproject.toml", "[tool.mypy]\nstrict = false\n", "[tool.mypy]\nstrict = true\n")])).toEqual([]);
  });
});

describe("go.golangci", () => {
  test("a linter disabled is found; one enabled is not", () => {
    const cfg = "linters:\n  enable:\n    - errcheck\n    - govet\n";
    expect(found([change(".golangci.yml", cfg, `${cfg}  disable:\n    - unused\n`)])).toEqual(["go.golangci"]);
    expect(found([change(".golangci.yml", cfg, cfg.replace("    - govet\n", "    - govet\n    - staticcheck\n"))])).toEqual([]);
  });
});

describe("rust.lints", () => {
  test("a lint lowered from deny to allow in Cargo.toml is found; raised is not", () => {
    const cargo = '[package]\nname = "calc"\n\n[lints.clippy]\nunwrap_used = "deny"\n';
    expect(weakening([change("Cargo.toml", cargo, cargo.replace('"deny"', '"allow"'))]).findings).toMatchObject([
      { detector: "rust.lints", message: "lint `clippy.unwrap_used` lowered in Cargo.toml: deny → allow" },
    ]);
    expect(found([change("Cargo.toml", cargo, cargo.replace('"deny"', '"forbid"'))])).toEqual([]);
  });
});
