import { parseRepoConfig } from "../../../src/config/load-repo-config.js";

/** The `tests` block of .github/patchgate.yml: what the test-integrity check reads and lets through. */
describe("tests in .github/patchgate.yml", () => {
  test("paths, allow and golden are read as written", () => {
    const r = parseRepoConfig("tests:\n  paths: ['spec/**', '**/*_check.py']\n  allow: [snapshots]\n  golden: ['testdata/**/*.golden']\n");
    expect(r).toMatchObject({ ok: true, config: { tests: { paths: ["spec/**", "**/*_check.py"], allow: ["snapshots"], golden: ["testdata/**/*.golden"] } } });
  });

  test("absent, the check uses its defaults: nothing is set", () => {
    const r = parseRepoConfig("test: npm test\n");
    expect(r.ok && r.config.tests).toBeUndefined();
  });

  test("an allowance that is not one of the five is refused, naming them", () => {
    const r = parseRepoConfig("tests:\n  allow: [assertions]\n");
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.field).toBe("tests.allow.0");
      expect(r.error.message).toContain('"snapshots"|"test_config"|"fewer_tests"|"skips"|"deleted_tests"');
    }
  });

  test("a glob outside the repository is refused", () => {
    for (const glob of ["/etc/**", "../other/**"]) {
      const r = parseRepoConfig(`tests:\n  paths: ['${glob}']\n`);
      expect(r.ok ? null : r.error.field).toBe("tests.paths.0");
    }
  });

  test("an unknown key inside tests is refused", () => {
    const r = parseRepoConfig("tests:\n  skip: true\n");
    expect(r.ok ? null : r.error.field).toBe("tests.skip");
  });
});
