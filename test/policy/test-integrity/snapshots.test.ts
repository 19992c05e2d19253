import { change, found, weakening } from "./weakening.js";

const SNAP = '// Jest Snapshot v1\n\nexports[`renders 1`] = `"<b>1</b>"`;\n';

describe("any.snapshot", () => {
  test("a snapshot rewritten is found, with its lines", () => {
    expect(weakening([change("src/__snapshots__/view.test.ts.snap", SNAP, SNAP.replace("<b>1</b>", "<i>1</i>"))]).findings).toEqual([
      {
        kind: "snapshot_changed",
        detector: "any.snapshot",
        path: "src/__snapshots__/view.test.ts.snap",
        message: "snapshot src/__snapshots__/view.test.ts.snap changed",
        lines: ['-exports[`renders 1`] = `"<b>1</b>"`;', '+exports[`renders 1`] = `"<i>1</i>"`;'],
      },
    ]);
  });

  test("a snapshot deleted, an insta .snap changed and a golden file named in tests.golden are found", () => {
    expect(found([change("__snapshots__/a.snap", SNAP, null)])).toEqual(["any.snapshot"]);
    expect(found([change("tests/snapshots/it__renders.snap", "---\nsource: x\n---\n1\n", "---\nsource: x\n---\n2\n")])).toEqual(["any.snapshot"]);
    expect(found([change("testdata/out.golden", "a\n", "b\n")], { goldenGlobs: ["testdata/*.golden"] })).toEqual(["any.snapshot"]);
    expect(found([change("testdata/out.golden", "a\n", "b\n")])).toEqual([]);
  });

  test("a new test's snapshot added, to a new file or an existing one, is not a finding", () => {
    expect(found([change("src/__snapshots__/new.test.ts.snap", null, SNAP)])).toEqual([]);
    expect(found([change("src/__snapshots__/view.test.ts.snap", SNAP, `${SNAP}\nexports[\`renders 2\`] = \`"<b>2</b>"\`;\n`)])).toEqual([]);
  });

  test("a snapshot updated with `allow: [snapshots]` is not a finding", () => {
    expect(found([change("src/__snapshots__/view.test.ts.snap", SNAP, SNAP.replace("<b>1</b>", "<i>1</i>"))], { allow: ["snapshots"] })).toEqual([]);
  });
});
