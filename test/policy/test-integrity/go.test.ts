import { change, found, weakening } from "./weakening.js";

const TESTS = `package calc

import "testing"

func TestAdd(t *testing.T) {
	if got := Add(1, 2); got != 3 {
		t.Fatalf("Add(1, 2) = %d", got)
	}
}

func TestZero(t *testing.T) {
	if err := check(); err != nil {
		t.Error(err.Error())
	}
	require.Equal(t, 1, Add(1, 0))
}
`;

describe("go.skip", () => {
  test.each(['t.Skip("flaky")', "t.SkipNow()", 't.Skipf("later: %d", 1)'])("`%s` added is found", (call) => {
    expect(found([change("calc_test.go", TESTS, TESTS.replace("func TestAdd(t *testing.T) {\n", `func TestAdd(t *testing.T) {\n\t${call}\n`))])).toEqual([
      "go.skip",
    ]);
  });

  test("the finding shows the line", () => {
    const [f] = weakening([
      change("calc_test.go", TESTS, TESTS.replace("func TestAdd(t *testing.T) {\n", 'func TestAdd(t *testing.T) {\n\tt.Skip("flaky")\n')),
    ]).findings;
    expect(f).toMatchObject({ kind: "skip_marker_added", path: "calc_test.go", lines: ['+\tt.Skip("flaky")'] });
  });

  test("a skip moved with its test is not a finding", () => {
    const skipped = 'func TestLater(t *testing.T) {\n\tt.Skip("later")\n}\n';
    expect(found([change("calc_test.go", TESTS + skipped, TESTS.replace("func TestAdd", `${skipped}\nfunc TestAdd`))])).toEqual([]);
  });
});

describe("go.build_constraint", () => {
  test("a build constraint added to a test file is found", () => {
    expect(found([change("calc_test.go", TESTS, `//go:build integration\n\n${TESTS}`)])).toEqual(["go.build_constraint"]);
  });

  test("one that was there already is not", () => {
    const tagged = `//go:build linux\n\n${TESTS}`;
    expect(found([change("calc_test.go", tagged, tagged.replace("Add(1, 2); got", "Add(2, 1); got"))])).toEqual([]);
  });
});

describe("go.assertions", () => {
  test("t.Fatalf, t.Error and require.* removed are each found", () => {
    expect(found([change("calc_test.go", TESTS, TESTS.replace('\t\tt.Fatalf("Add(1, 2) = %d", got)\n', ""))])).toEqual(["go.assertions"]);
    expect(found([change("calc_test.go", TESTS, TESTS.replace("\t\tt.Error(err.Error())\n", "\t\t_ = err\n"))])).toEqual(["go.assertions"]);
    expect(found([change("calc_test.go", TESTS, TESTS.replace("\trequire.Equal(t, 1, Add(1, 0))\n", ""))])).toEqual(["go.assertions"]);
  });

  test("err.Error() and fmt.Errorf are not assertions: removing them is not a finding", () => {
    const before = `${TESTS}\nfunc helper() error { return fmt.Errorf("x: %s", errors.New("y").Error()) }\n`;
    expect(found([change("calc_test.go", before, TESTS)])).toEqual([]);
  });
});

describe("go.suppression", () => {
  test("//nolint added in source is found", () => {
    expect(
      found([
        change(
          "calc.go",
          "package calc\n\nfunc Add(a, b int) int { return a + b }\n",
          "package calc\n\nfunc Add(a, b int) int { return a + b } //nolint:unused\n",
        ),
      ]),
    ).toEqual(["go.suppression"]);
  });

  test("source changed without one is not", () => {
    expect(
      found([change("calc.go", "package calc\n\nfunc Add(a, b int) int { return a + b }\n", "package calc\n\nfunc Add(a, b int) int { return b + a }\n")]),
    ).toEqual([]);
  });
});
