import { clientConfig, type PrivateRegistry } from "../../../src/sandbox/egress/private-registry.js";
import { isRewritable, rewriteLocation, rewriteOrigin, withoutCargoAuthRequired } from "../../../src/sandbox/egress/registry-rewrite.js";

const registry = (r: Partial<PrivateRegistry> & Pick<PrivateRegistry, "name" | "kind" | "url">): PrivateRegistry => ({
  authorization: () => Promise.reject(new Error("never asked here")),
  ...r,
});

describe("private registries: what the sandbox's package managers are told", () => {
  test("npm: the default registry by the environment, scopes in a global config file; no credential anywhere", () => {
    const config = clientConfig([
      registry({ name: "corp-npm", kind: "npm", url: "https://npm.corp.example/npm/" }),
      registry({ name: "gh", kind: "npm", url: "https://npm.pkg.github.com/", scope: "@octo" }),
    ]);
    expect(config.env).toEqual({ npm_config_registry: "http://127.0.0.1:3129/corp-npm/npm/", npm_config_globalconfig: "/run/patchgate-egress/npmrc" });
    expect(config.npmrc).toBe("@octo:registry=http://127.0.0.1:3129/gh/\n");
    expect(config.cargoConfig).toBeNull();
  });

  test("pip and uv: the first index and the extra ones; pip's own proxy setting is emptied so NO_PROXY holds", () => {
    const config = clientConfig([
      registry({ name: "a", kind: "pip", url: "https://a.example/simple/" }),
      registry({ name: "b", kind: "pip", url: "https://b.example/pypi/simple/" }),
    ]);
    expect(config.env).toEqual({
      PIP_INDEX_URL: "http://127.0.0.1:3129/a/simple/",
      UV_DEFAULT_INDEX: "http://127.0.0.1:3129/a/simple/",
      PIP_EXTRA_INDEX_URL: "http://127.0.0.1:3129/b/pypi/simple/",
      UV_EXTRA_INDEX_URL: "http://127.0.0.1:3129/b/pypi/simple/",
      PIP_PROXY: "",
    });
  });

  test("go: the proxy first, then the public one; private modules skip the checksum database but stay on the proxy", () => {
    const config = clientConfig([registry({ name: "goprox", kind: "go", url: "https://goproxy.corp.example/", modules: ["corp.example/*"] })]);
    expect(config.env).toEqual({
      GOPROXY: "http://127.0.0.1:3129/goprox/,https://proxy.golang.org",
      GOPRIVATE: "corp.example/*",
      GONOSUMDB: "corp.example/*",
      GONOPROXY: "none",
    });
  });

  test("cargo: a named sparse registry, and crates.io replaced by it when declared so", () => {
    const config = clientConfig([registry({ name: "crates", kind: "cargo", url: "https://cargo.corp.example/index/", replacesCratesIo: true })]);
    expect(config.cargoConfig).toBe(
      '[registries.crates]\nindex = "sparse+http://127.0.0.1:3129/crates/index/"\n\n[source.crates-io]\nreplace-with = "crates"\n',
    );
    expect(config.env).toEqual({});
  });
});

describe("private registries: answers put under the loopback", () => {
  const origin = new URL("https://npm.corp.example/npm/");
  const loopback = "http://127.0.0.1:3129/corp";

  test("the registry's own URLs, with or without the default port; a longer host that begins alike is left alone", () => {
    const meta = JSON.stringify({
      a: "https://npm.corp.example/npm/x/-/x-1.0.0.tgz",
      b: "https://npm.corp.example:443/npm/y.tgz",
      c: "https://npm.corp.example.evil.test/npm/z.tgz",
      d: "https://cdn.example/z.tgz",
      api: "https://npm.corp.example",
    });
    expect(JSON.parse(rewriteOrigin(meta, origin, loopback))).toEqual({
      a: "http://127.0.0.1:3129/corp/npm/x/-/x-1.0.0.tgz",
      b: "http://127.0.0.1:3129/corp/npm/y.tgz",
      c: "https://npm.corp.example.evil.test/npm/z.tgz",
      d: "https://cdn.example/z.tgz",
      api: "http://127.0.0.1:3129/corp",
    });
  });

  test("a redirect on the origin comes back under the loopback; one to another host is handed on as it is", () => {
    const requested = new URL("https://npm.corp.example/npm/x");
    expect(rewriteLocation("/npm/x/", requested, loopback)).toBe("http://127.0.0.1:3129/corp/npm/x/");
    expect(rewriteLocation("https://npm.corp.example/files/x.tgz?sig=1", requested, loopback)).toBe("http://127.0.0.1:3129/corp/files/x.tgz?sig=1");
    expect(rewriteLocation("https://storage.example/x.tgz", requested, loopback)).toBe("https://storage.example/x.tgz");
  });

  test("only text answers are rewritten; cargo's config.json stops asking the sandbox for a token", () => {
    expect([
      isRewritable("application/json"),
      isRewritable("text/html; charset=utf-8"),
      isRewritable("application/octet-stream"),
      isRewritable(undefined),
    ]).toEqual([true, true, false, false]);
    expect(withoutCargoAuthRequired('{"dl":"x","auth-required": true}')).toBe('{"dl":"x","auth-required": false}');
  });
});
