import { change, found, weakening } from "./weakening.js";

const LIB = `pub fn add(a: i32, b: i32) -> i32 {
    assert!(a < 1000, "too big");
    a + b
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adds() {
        assert_eq!(add(1, 2), 3);
    }

    #[test]
    #[should_panic]
    fn too_big() {
        add(5000, 1);
    }
}
`;

describe("rust.ignore", () => {
  test("#[ignore] added in a #[cfg(test)] module is found", () => {
    expect(weakening([change("src/lib.rs", LIB, LIB.replace("    #[test]\n    fn adds", "    #[test]\n    #[ignore]\n    fn adds"))]).findings).toEqual([
      { kind: "skip_marker_added", detector: "rust.ignore", path: "src/lib.rs", message: "`#[ignore]` added in src/lib.rs (0 → 1)", lines: ["+    #[ignore]"] },
    ]);
  });

  test("#[ignore] added under tests/ is found; one moved is not", () => {
    const it = "#[test]\nfn one() {\n    assert!(true);\n}\n";
    expect(found([change("tests/it.rs", it, it.replace("#[test]", '#[test]\n#[ignore = "slow"]'))])).toEqual(["rust.ignore"]);
    const ignored = "#[test]\n#[ignore]\nfn later() {}\n";
    expect(found([change("tests/it.rs", ignored + it, it + ignored)])).toEqual([]);
  });
});

describe("rust.assertions", () => {
  test("assert_eq! or #[should_panic] removed from the test module is found", () => {
    expect(found([change("src/lib.rs", LIB, LIB.replace("        assert_eq!(add(1, 2), 3);\n", "        add(1, 2);\n"))])).toEqual(["rust.assertions"]);
    expect(found([change("src/lib.rs", LIB, LIB.replace("    #[should_panic]\n", ""))])).toEqual(["rust.assertions"]);
  });

  test("an assert! in the code under test is not a test's: removing it is not this finding", () => {
    expect(found([change("src/lib.rs", LIB, LIB.replace('    assert!(a < 1000, "too big");\n', ""))])).toEqual([]);
  });

  test("assert! replaced by assert_eq! is not a finding", () => {
    const it = "#[test]\nfn one() {\n    assert!(add(1, 2) == 3);\n}\n";
    expect(found([change("tests/it.rs", it, it.replace("assert!(add(1, 2) == 3)", "assert_eq!(add(1, 2), 3)"))])).toEqual([]);
  });
});

describe("rust.suppression", () => {
  test("#[allow(…)] and #![allow(…)] added are found", () => {
    expect(found([change("src/lib.rs", LIB, `#![allow(clippy::all)]\n${LIB}`)])).toEqual(["rust.suppression"]);
    expect(found([change("src/main.rs", "fn main() {}\n", "#[allow(dead_code)]\nfn unused() {}\nfn main() {}\n")])).toEqual(["rust.suppression"]);
  });

  test("an existing one moved is not", () => {
    expect(found([change("src/main.rs", "#[allow(dead_code)]\nfn a() {}\nfn main() {}\n", "fn main() {}\n#[allow(dead_code)]\nfn a() {}\n")])).toEqual([]);
  });
});
