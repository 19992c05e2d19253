import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  cargoConfigRegistries,
  envRegistries,
  npmrcRegistries,
  pipConfRegistries,
  registryUrls,
  yarnRegistries,
} from "../../../src/sandbox/egress/registries.js";

describe("package registries from the package managers' configuration", () => {
  test(".npmrc: registry and scoped registries; auth lines and ${VAR} values are not URLs taken", () => {
    const text = "registry=https://npm.corp.example/\n@acme:registry = https://acme.example/npm/\n//npm.corp.example/:_authToken=abc\nregistry=${REG}\n";
    expect(npmrcRegistries(text)).toEqual(["https://npm.corp.example/", "https://acme.example/npm/"]);
  });

  test("yarn: berry's npmRegistryServer and v1's registry", () => {
    expect(yarnRegistries('npmRegistryServer: "https://y.example"\nnpmScopes:\n  acme:\n    npmRegistryServer: https://acme.example\n')).toEqual([
      "https://y.example",
      "https://acme.example",
    ]);
    expect(yarnRegistries('registry "https://v1.example/"\n')).toEqual(["https://v1.example/"]);
  });

  test("pip.conf: index-url and a multi-line extra-index-url", () => {
    const text =
      "[global]\nindex-url = https://pypi.corp.example/simple\nextra-index-url =\n    https://a.example/simple\n    https://b.example/simple\ntimeout = 60\n";
    expect(pipConfRegistries(text)).toEqual(["https://pypi.corp.example/simple", "https://a.example/simple", "https://b.example/simple"]);
  });

  test("cargo config: registries, source replacement; broken TOML gives none", () => {
    const text = '[registries.corp]\nindex = "sparse+https://cargo.corp.example/index/"\n[source.mirror]\nregistry = "https://mirror.example/index"\n';
    expect(cargoConfigRegistries(text)).toEqual(["sparse+https://cargo.corp.example/index/", "https://mirror.example/index"]);
    expect(cargoConfigRegistries("[[[")).toEqual([]);
  });

  test("environment: GOPROXY lists, pip and npm variables", () => {
    expect(
      envRegistries({
        GOPROXY: "https://goproxy.example,https://proxy.golang.org|direct",
        PIP_INDEX_URL: "https://p.example/simple",
        npm_config_registry: "https://n.example/",
      }),
    ).toEqual(["https://goproxy.example", "https://proxy.golang.org", "https://p.example/simple", "https://n.example/"]);
  });

  test("defaults, the host's files and the repository's files together; a FIFO is not read", async () => {
    const home = mkdtempSync(join(tmpdir(), "pg-home-"));
    const ws = mkdtempSync(join(tmpdir(), "pg-ws-"));
    try {
      writeFileSync(join(home, ".npmrc"), "registry=https://host-mirror.example/\n");
      writeFileSync(join(ws, ".npmrc"), "@acme:registry=https://acme.example/\n");
      mkdirSync(join(ws, ".cargo"));
      writeFileSync(join(ws, ".cargo/config.toml"), '[registries.x]\nindex = "https://crates.acme.example/"\n');
      const urls = await registryUrls(ws, {}, home);
      expect(urls).toEqual(
        expect.arrayContaining([
          "https://registry.npmjs.org/",
          "https://pypi.org/simple/",
          "https://host-mirror.example/",
          "https://acme.example/",
          "https://crates.acme.example/",
        ]),
      );
    } finally {
      rmSync(home, { recursive: true, force: true });
      rmSync(ws, { recursive: true, force: true });
    }
  });
});
