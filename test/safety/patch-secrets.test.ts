import { filesWithSecrets } from "../../src/safety/patch-secrets.js";

const patch = (file: string, added: string, removed = "old") =>
  `diff --git a/${file} b/${file}\n--- a/${file}\n+++ b/${file}\n@@ -1 +1 @@\n-${removed}\n+${added}\n`;
const TOKEN = ["ghp", "_", "Q".repeat(6), "r7".repeat(15)].join("");

describe("secrets in the added lines of untested work", () => {
  test("a known key format or a configured secret in an added line names its file", () => {
    expect(filesWithSecrets(patch("a.js", `const t = "${TOKEN}";`) + patch("b.js", "const x = 1;"), [])).toEqual(["a.js"]);
    expect(filesWithSecrets(patch("c.txt", "password is hunter2-but-longer"), ["hunter2-but-longer"])).toEqual(["c.txt"]);
  });

  test("removed lines and clean changes do not count", () => {
    expect(filesWithSecrets(patch("a.js", "const t = 1;", `const t = "${TOKEN}";`), [])).toEqual([]);
  });
});
