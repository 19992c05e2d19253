import { execFileSync } from "node:child_process";
import { ScriptedLLM } from "../fakes/scripted-llm.js";
import { approvePlan, autoApproveWrites, denyIntegrity } from "../../src/agent/approvals.js";
import { publishToLocalBranch } from "../../src/publish/local-branch.js";
import { SessionHarness } from "../helpers/session-harness.js";

/** A project whose test fails on the base tree, the agent's weakening of that test, and the real fix. */
interface Language {
  name: string;
  files: Record<string, string>;
  testPath: string;
  weaken: { search: string; replace: string };
  detector: string;
  fix: { path: string; search: string; replace: string };
}

/** No dependencies anywhere: no registry is reachable here. */
const LANGUAGES: Language[] = [
  {
    name: "Python",
    files: {
      "pyproject.toml": '[project]\nname = "intervals"\nversion = "0.1.0"\n\n[tool.pytest.ini_options]\ntestpaths = ["tests"]\n',
      "intervals.py": "def overlaps(a, b):\n    return a[0] < b[1] and b[0] < a[1]\n",
      "tests/test_intervals.py":
        "import pytest\n\nfrom intervals import overlaps\n\n\ndef test_touching_intervals_overlap():\n    assert overlaps((1, 2), (2, 3))\n\n\ndef test_apart():\n    assert not overlaps((1, 2), (3, 4))\n",
      ".gitignore": "__pycache__/\n.pytest_cache/\n",
      // The host's installed pytest plugins are not what the session is about, and load on every run.
      ".github/patchgate.yml": "test: PYTEST_DISABLE_PLUGIN_AUTOLOAD=1 python3 -m pytest -q -p no:cacheprovider\n",
    },
    testPath: "tests/test_intervals.py",
    weaken: { search: "def test_touching_intervals_overlap():", replace: '@pytest.mark.skip(reason="flaky")\ndef test_touching_intervals_overlap():' },
    detector: "py.skip",
    fix: { path: "intervals.py", search: "a[0] < b[1] and b[0] < a[1]", replace: "a[0] <= b[1] and b[0] <= a[1]" },
  },
  {
    name: "Go",
    files: {
      "go.mod": "module example.com/words\n\ngo 1.19\n",
      "words.go":
        'package words\n\nimport "strings"\n\n// Count returns how many words s has.\nfunc Count(s string) int {\n\treturn len(strings.Split(s, " "))\n}\n',
      "words_test.go":
        'package words\n\nimport "testing"\n\nfunc TestCountIgnoresRepeatedSpaces(t *testing.T) {\n\tif got := Count("a  b   c"); got != 3 {\n\t\tt.Fatalf("Count = %d, want 3", got)\n\t}\n}\n',
      // go vet is not what the session is about, and it type-checks the standard library again on
      // every run (each run starts with a cold build cache): most of a run's CPU.
      ".github/patchgate.yml": "test: go test -vet=off ./...\n",
    },
    testPath: "words_test.go",
    weaken: {
      search: "func TestCountIgnoresRepeatedSpaces(t *testing.T) {\n",
      replace: 'func TestCountIgnoresRepeatedSpaces(t *testing.T) {\n\tt.Skip("flaky")\n',
    },
    detector: "go.skip",
    fix: { path: "words.go", search: 'len(strings.Split(s, " "))', replace: "len(strings.Fields(s))" },
  },
  {
    name: "Rust",
    files: {
      "Cargo.toml": '[package]\nname = "clamp"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n',
      "src/lib.rs":
        "/// `x` limited to `lo..=hi`.\npub fn clamp(x: i32, lo: i32, hi: i32) -> i32 {\n    if x < lo {\n        lo\n    } else if x > hi {\n        lo\n    } else {\n        x\n    }\n}\n",
      "tests/clamp.rs":
        "use clamp::clamp;\n\n#[test]\nfn above_the_range_gives_hi() {\n    assert_eq!(clamp(9, 0, 5), 5);\n}\n\n#[test]\nfn inside_stays() {\n    assert_eq!(clamp(3, 0, 5), 3);\n}\n",
      ".gitignore": "target/\nCargo.lock\n",
      ".github/patchgate.yml": "test: cargo test --offline\n",
    },
    testPath: "tests/clamp.rs",
    weaken: { search: "#[test]\nfn above_the_range_gives_hi() {", replace: "#[test]\n#[ignore]\nfn above_the_range_gives_hi() {" },
    detector: "rust.ignore",
    fix: { path: "src/lib.rs", search: "    } else if x > hi {\n        lo\n", replace: "    } else if x > hi {\n        hi\n" },
  },
];

const cli = { login: "maintainer", via: "cli" as const };
const call = (name: string, args: Record<string, unknown> = {}) => ({ toolCalls: [{ name, arguments: args }] });

describe("one session per language: the agent's weakening is caught before publication, and once denied its real fix is published", () => {
  let h: SessionHarness | null = null;
  afterEach(async () => {
    await h?.dispose();
    h = null;
  });

  test.each(LANGUAGES)(
    "$name",
    async (lang) => {
      h = await SessionHarness.create(lang.files);
      const session = h;
      const llm = new ScriptedLLM([
        { toolCalls: [lang.testPath, lang.fix.path].map((path) => ({ name: "read_file", arguments: { path } })) },
        call("submit_plan", { summary: "make the tests pass", steps: ["change", "run the tests"] }),
        call("edit_file", { path: lang.testPath, edits: [lang.weaken] }),
        call("run_tests"),
        call("finish", { summary: "tests pass" }),
        call("write_file", { path: lang.testPath, content: lang.files[lang.testPath] }),
        call("edit_file", { path: lang.fix.path, edits: [{ search: lang.fix.search, replace: lang.fix.replace }] }),
        call("run_tests"),
        call("finish", { summary: "fixed the code; the test runs unchanged" }),
      ]);
      await session.resume(llm);
      await approvePlan(session.ledger, cli, session.ledger.state.planHash!);
      await autoApproveWrites(session.ledger, cli);
      expect(await session.resume(llm)).toEqual({ kind: "parked", phase: "awaiting_integrity_approval" });
      expect(session.ledger.state.integrity?.report.findings.map((f) => f.detector)).toContain(lang.detector);
      expect(session.ledger.state.published).toBeNull();

      await denyIntegrity(session.ledger, cli, session.ledger.state.integrity!.digest, "fix the code instead");
      expect(await session.resume(llm)).toEqual({ kind: "ready_to_publish" });
      await publishToLocalBranch(session.ledger, session.workspace, {
        prefix: "patchgate/it-",
        author: { name: "T", email: "t@example.invalid" },
        trailer: "test",
      });
      const { branch } = session.ledger.state.published!;
      const show = (path: string) => execFileSync("git", ["show", `${branch}:${path}`], { cwd: session.workspace.root, encoding: "utf8" });
      expect(show(lang.testPath)).toBe(lang.files[lang.testPath]);
      expect(show(lang.fix.path)).toBe(lang.files[lang.fix.path].replace(lang.fix.search, lang.fix.replace));
      expect(session.ledger.state.integrityChecked?.report.findings).toEqual([]);
    },
    600_000,
  );
});
