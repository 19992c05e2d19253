import { childrenCpuMs } from "../../bench/concurrency.js";

describe("the CPU time of a sandboxed test run, from the shell's `times`", () => {
  test("dash's and bash's formats: the last line is the children's user and system time", () => {
    expect(childrenCpuMs("ok 1\n0m0.000000s 0m0.000000s\n0m0.190000s 0m0.040000s\n")).toBeCloseTo(230, 6);
    expect(childrenCpuMs("0m0.001s 0m0.000s\n1m2.500s 0m0.250s")).toBeCloseTo(62_750, 6);
  });

  test("output without the times line is an error, never a zero", () => {
    expect(() => childrenCpuMs("ok 1 - adds\n")).toThrow("no children's times");
    expect(() => childrenCpuMs("")).toThrow("no children's times");
  });
});
