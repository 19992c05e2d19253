import { expectFixedAlone, hasProgram, missing, runLayout, type Layout } from "./layout-run.js";

/** A cargo crate without dependencies (crates.io is not reachable here): rustup's or Debian's cargo. */
const LAYOUT: Layout = {
  name: "cargo",
  files: {
    "Cargo.toml": '[package]\nname = "clamp"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n',
    "src/lib.rs":
      "/// `x` limited to `lo..=hi`.\npub fn clamp(x: i32, lo: i32, hi: i32) -> i32 {\n    if x < lo {\n        lo\n    } else if x > hi {\n        lo\n    } else {\n        x\n    }\n}\n\n#[cfg(test)]\nmod tests {\n    use super::clamp;\n\n    #[test]\n    fn above_the_range_gives_hi() {\n        assert_eq!(clamp(9, 0, 5), 5);\n    }\n\n    #[test]\n    fn inside_stays() {\n        assert_eq!(clamp(3, 0, 5), 3);\n    }\n}\n",
    ".gitignore": "target/\nCargo.lock\n",
    ".github/patchgate.yml": "test: cargo test --offline\n",
  },
  fix: { path: "src/lib.rs", search: "    } else if x > hi {\n        lo\n", replace: "    } else if x > hi {\n        hi\n" },
  failingTest: "tests::above_the_range_gives_hi",
};

test("cargo crate: the fix alone is committed", async () => {
  if (!hasProgram("cargo") && missing("cargo (rustup, or Debian: cargo)")) return;
  expectFixedAlone(await runLayout(LAYOUT), LAYOUT);
}, 900_000);
