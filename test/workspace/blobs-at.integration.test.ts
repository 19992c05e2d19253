import { execFileSync } from "node:child_process";
import { blobsAt, parseBatch } from "../../src/workspace/blobs-at.js";
import { makeRepo } from "../helpers/git-fixture.js";

const FILES: Record<string, string> = {
  "src/a.js": "export const a = 1;\n",
  "with space/b.txt": "bee\n",
  "ünïcode.md": "# ü\n",
  "empty.txt": "",
  "line\nbreak.txt": "a path with a newline\n",
  "no-newline-at-end.txt": "last",
};

describe("many paths' content at one commit, in one git process", () => {
  test("each path reads as `git cat-file blob` reads it alone; a missing path and a folder are null", async () => {
    const repo = makeRepo(FILES);
    try {
      const head = execFileSync("git", ["rev-parse", "HEAD"], { cwd: repo.dir, encoding: "utf8" }).trim();
      const asked = [...Object.keys(FILES), "gone.js", "src", "src/a.js"];
      const got = await blobsAt(repo.dir, head, asked);
      for (const [p, content] of Object.entries(FILES)) expect({ p, content: got.get(p) }).toEqual({ p, content });
      expect(got.get("gone.js")).toBeNull();
      expect(got.get("src")).toBeNull();
    } finally {
      repo.cleanup();
    }
  });

  test("the batch's answers, in order: a blob's bytes, and null for anything else", () => {
    const out = Buffer.from("aaaa blob 3\nhi\n\nabc:gone missing\nbbbb tree 10\n0123456789\ncccc blob 0\n\n");
    expect(parseBatch(out, 4)).toEqual(["hi\n", null, null, ""]);
    expect(() => parseBatch(Buffer.from("aaaa blob 1\nx\n"), 2)).toThrow("answered 1 of 2 requests");
  });
});
