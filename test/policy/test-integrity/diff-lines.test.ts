import { changedLines } from "../../../src/policy/test-integrity/diff-lines.js";
import { change, weakening } from "./weakening.js";

describe("changedLines", () => {
  test("a small change is the exact diff, in order", () => {
    expect(changedLines("a\nb\nc\n", "a\nB\nc\nd\n")).toEqual(["-b", "+B", "+d"]);
  });

  test("a file rewritten past the edit limit still shows what left and what came, one for one", () => {
    const before = `${Array.from({ length: 3000 }, (_, i) => `old ${i}`).join("\n")}\nkept\nkept\n`;
    const after = `kept\n${Array.from({ length: 3000 }, (_, i) => `new ${i}`).join("\n")}\n`;
    const lines = changedLines(before, after);
    expect(lines.filter((l) => l.startsWith("-"))).toEqual([...Array.from({ length: 3000 }, (_, i) => `-old ${i}`), "-kept"]);
    expect(lines.filter((l) => l.startsWith("+"))).toEqual(Array.from({ length: 3000 }, (_, i) => `+new ${i}`));
  });

  test("a snapshot rewritten whole is found with at most ten lines shown", () => {
    const snap = (word: string) => Array.from({ length: 3000 }, (_, i) => `exports[\`case ${i}\`] = \`${word}\`;`).join("\n");
    const [finding] = weakening([change("__snapshots__/big.snap", snap("a"), snap("b"))]).findings;
    expect(finding).toMatchObject({ detector: "any.snapshot", lines: Array.from({ length: 10 }, (_, i) => `-exports[\`case ${i}\`] = \`a\`;`) });
  });
});
