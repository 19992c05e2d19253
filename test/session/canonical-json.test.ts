import { argsDigest, mcpToolVersion } from "../../src/mcp/tool-names.js";
import { canonicalJson } from "../../src/session/canonical-json.js";
import { planHash } from "../../src/tools/support/plan-hash.js";

describe("canonical JSON", () => {
  test("sorts keys at every depth and writes what JSON.stringify writes otherwise", () => {
    expect(canonicalJson({ b: 1, a: { d: [3, undefined, { z: null, y: "x" }], c: undefined } })).toBe('{"a":{"d":[3,null,{"y":"x","z":null}]},"b":1}');
    expect(canonicalJson({ n: -0, big: 1e21, inf: Infinity, s: "\u2028\ud800\n" })).toBe(
      `{"big":1e+21,"inf":null,"n":0,"s":${JSON.stringify("\u2028\ud800\n")}}`,
    );
    expect(canonicalJson({ when: new Date("2026-12-06T05:00:00.000Z"), f: () => 1 })).toBe('{"when":"2026-12-06T05:00:00.000Z"}');
  });

  test("a value with no JSON form is a TypeError, not a hash of the text `undefined`", () => {
    expect(() => canonicalJson({ n: 1n })).toThrow(TypeError);
    expect(() => canonicalJson(undefined)).toThrow("canonicalJson: the value has no JSON form");
  });

  test("the hashes built on it keep their values: an approved plan and a recorded MCP contract still match", () => {
    expect(planHash({ summary: "Fix add", steps: ["change src/add.js", "run tests"] })).toBe(
      "fcd79e89a2e68acf4cc92141c236dde9398778e9cebe74959b219566f14a5ada",
    );
    expect(argsDigest({ z: [1, { b: null, a: "é" }], a: undefined })).toBe("8f695ca2e8e2970ae26394b722bc1e790d7ab1dcfef6768511024d1d2752711a");
    expect(argsDigest(undefined)).toBe("74234e98afe7498fb5daf1f36ac2d78acc339464f950703b8c019892f982b90b");
    expect(mcpToolVersion({ name: "srv", version: "1" }, { name: "t", inputSchema: { type: "object", properties: { b: {}, a: {} } } })).toBe(
      "srv@1#71c9658c0950",
    );
  });
});
