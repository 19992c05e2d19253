import { expectFixedAlone, hasProgram, missing, runLayout, type Layout } from "./layout-run.js";

/** A Go module without external dependencies (no Go proxy is reachable here): Debian's golang-go in CI. */
const LAYOUT: Layout = {
  name: "go",
  files: {
    "go.mod": "module example.com/words\n\ngo 1.19\n",
    "words.go":
      'package words\n\nimport "strings"\n\n// Count returns how many words s has.\nfunc Count(s string) int {\n\treturn len(strings.Split(s, " "))\n}\n',
    "words_test.go":
      'package words\n\nimport "testing"\n\nfunc TestCountIgnoresRepeatedSpaces(t *testing.T) {\n\tif got := Count("a  b   c"); got != 3 {\n\t\tt.Fatalf("Count = %d, want 3", got)\n\t}\n}\n\nfunc TestCountOne(t *testing.T) {\n\tif got := Count("word"); got != 1 {\n\t\tt.Fatalf("Count = %d, want 1", got)\n\t}\n}\n',
    ".github/patchgate.yml": "test: go test ./...\n",
  },
  fix: { path: "words.go", search: 'len(strings.Split(s, " "))', replace: "len(strings.Fields(s))" },
  failingTest: "example.com/words: TestCountIgnoresRepeatedSpaces",
};

test("go module: the fix alone is committed", async () => {
  if (!hasProgram("go", ["version"]) && missing("go (Debian: golang-go)")) return;
  expectFixedAlone(await runLayout(LAYOUT), LAYOUT);
}, 900_000);
