import { parseCommandArgs, positiveInt, positiveNumber } from "../../src/cli/cli-args.js";
import { UsageError } from "../../src/cli/usage-error.js";

const usageMessage = (f: () => unknown): string => {
  try {
    f();
  } catch (e) {
    if (e instanceof UsageError) return e.message;
    throw e;
  }
  return "no error";
};

describe("positiveInt", () => {
  test.each(["abc", "0", "-3", "1.5", "10abc", "", " ", "1e3", "0x10", "99999999999999999999"])("%p is a usage error", (v) => {
    expect(usageMessage(() => positiveInt("max-steps", v))).toBe(`--max-steps must be a positive integer, got "${v}"`);
  });
  test.each([
    ["1", 1],
    ["40", 40],
  ] as const)("%p → %p", (v, n) => expect(positiveInt("n", v)).toBe(n));
  test("leading zeros are refused (octal or decimal? nobody should have to guess)", () => {
    expect(usageMessage(() => positiveInt("n", "007"))).toBe(`--n must be a positive integer, got "007"`);
  });
  test("absent stays absent", () => expect(positiveInt("n", undefined)).toBeUndefined());
});

describe("positiveNumber", () => {
  test.each(["abc", "0", "-1", "", "Infinity", "NaN"])("%p is a usage error", (v) => {
    expect(usageMessage(() => positiveNumber("max-cost-usd", v))).toBe(`--max-cost-usd must be a positive number, got "${v}"`);
  });
  test("0.25 is a quarter dollar", () => expect(positiveNumber("max-cost-usd", "0.25")).toBe(0.25));
});

describe("parseCommandArgs", () => {
  const OPTIONS = { repo: { type: "string" }, yes: { type: "boolean" } } as const;
  test("an unknown flag names itself and the usage, without node's hint about positionals", () => {
    expect(usageMessage(() => parseCommandArgs(["--bogus", "x"], OPTIONS, "patchgate x"))).toBe("Unknown option '--bogus'\nusage: patchgate x");
  });
  test("a string flag without its value is a usage error", () => {
    expect(usageMessage(() => parseCommandArgs(["--repo"], OPTIONS, "patchgate x"))).toMatch(/^Option '--repo <value>' argument missing\nusage: patchgate x$/);
  });
  test.each([["--help"], ["-h"], ["--repo", "r", "--help"]])("%p asks for help", (...argv) => {
    expect(parseCommandArgs(argv, OPTIONS, "u")).toEqual({ help: true });
  });
  test("flags and positionals", () => {
    expect(parseCommandArgs(["--repo", "r", "do", "it"], OPTIONS, "u")).toEqual({ help: false, values: { repo: "r" }, positionals: ["do", "it"] });
  });
});
