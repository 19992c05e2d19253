// Outputs below were captured from real runs of `go test ./...` (Go 1.19, with and without -v, and
// with a package that does not compile) and `cargo test` (1.95); the directories they ran in are
// renamed to the sandbox's /workspace.

export const GO = `--- FAIL: TestSubtracts (0.00s)
    math_test.go:13: 5 - 3 = 2, want 3
--- FAIL: TestNested (0.00s)
    --- FAIL: TestNested/multiplies (0.00s)
        math_test.go:19: 2 * 3 = 6, want 7
--- FAIL: TestPanics (0.00s)
panic: assignment to entry in nil map [recovered]
	panic: assignment to entry in nil map

goroutine 11 [running]:
testing.tRunner.func1.2({0x508ec0, 0x551d00})
	/usr/lib/go-1.19/src/testing/testing.go:1396 +0x24e
testing.tRunner.func1()
	/usr/lib/go-1.19/src/testing/testing.go:1399 +0x39f
panic({0x508ec0, 0x551d00})
	/usr/lib/go-1.19/src/runtime/panic.go:884 +0x212
example.com/mathx.TestPanics(0xc000098000?)
	/workspace/math_test.go:26 +0x2e
testing.tRunner(0xc000098680, 0x52f350)
	/usr/lib/go-1.19/src/testing/testing.go:1446 +0x10b
created by testing.(*T).Run
	/usr/lib/go-1.19/src/testing/testing.go:1493 +0x35f
FAIL	example.com/mathx	0.004s
FAIL
`;

export const GO_VERBOSE = `=== RUN   TestAdds
--- PASS: TestAdds (0.00s)
=== RUN   TestSubtracts
    math_test.go:13: 5 - 3 = 2, want 3
--- FAIL: TestSubtracts (0.00s)
=== RUN   TestNested
=== RUN   TestNested/multiplies
    math_test.go:19: 2 * 3 = 6, want 7
=== RUN   TestNested/ok
--- FAIL: TestNested (0.00s)
    --- FAIL: TestNested/multiplies (0.00s)
    --- PASS: TestNested/ok (0.00s)
=== RUN   TestPanics
--- FAIL: TestPanics (0.00s)
panic: assignment to entry in nil map [recovered]
	panic: assignment to entry in nil map

goroutine 9 [running]:
testing.tRunner.func1.2({0x508ec0, 0x551d00})
	/usr/lib/go-1.19/src/testing/testing.go:1396 +0x24e
testing.tRunner.func1()
	/usr/lib/go-1.19/src/testing/testing.go:1399 +0x39f
panic({0x508ec0, 0x551d00})
	/usr/lib/go-1.19/src/runtime/panic.go:884 +0x212
example.com/mathx.TestPanics(0xc000118000?)
	/workspace/math_test.go:26 +0x2e
testing.tRunner(0xc0001181a0, 0x52f350)
	/usr/lib/go-1.19/src/testing/testing.go:1446 +0x10b
created by testing.(*T).Run
	/usr/lib/go-1.19/src/testing/testing.go:1493 +0x35f
FAIL	example.com/mathx	0.005s
FAIL
`;

export const GO_BUILD_FAILED = `# example.com/mathx/broken [example.com/mathx/broken.test]
broken/b.go:2:23: cannot use "x" (untyped string constant) as int value in return statement
--- FAIL: TestSubtracts (0.00s)
    math_test.go:13: 5 - 3 = 2, want 3
--- FAIL: TestNested (0.00s)
    --- FAIL: TestNested/multiplies (0.00s)
        math_test.go:19: 2 * 3 = 6, want 7
--- FAIL: TestPanics (0.00s)
panic: assignment to entry in nil map [recovered]
	panic: assignment to entry in nil map

goroutine 11 [running]:
testing.tRunner.func1.2({0x508ec0, 0x551d00})
	/usr/lib/go-1.19/src/testing/testing.go:1396 +0x24e
testing.tRunner.func1()
	/usr/lib/go-1.19/src/testing/testing.go:1399 +0x39f
panic({0x508ec0, 0x551d00})
	/usr/lib/go-1.19/src/runtime/panic.go:884 +0x212
example.com/mathx.TestPanics(0xc000007d40?)
	/workspace/math_test.go:26 +0x2e
testing.tRunner(0xc0000984e0, 0x52f350)
	/usr/lib/go-1.19/src/testing/testing.go:1446 +0x10b
created by testing.(*T).Run
	/usr/lib/go-1.19/src/testing/testing.go:1493 +0x35f
FAIL	example.com/mathx	0.005s
FAIL	example.com/mathx/broken [build failed]
FAIL
`;

export const CARGO = `   Compiling mathx v0.1.0 (/workspace)
    Finished \`test\` profile [unoptimized + debuginfo] target(s) in 0.35s
     Running unittests src/lib.rs (target/debug/deps/mathx-b0eed76443cfd70e)

running 3 tests
test tests::adds ... ok
test tests::panics ... FAILED
test tests::subtracts ... FAILED

failures:

---- tests::panics stdout ----

thread 'tests::panics' (29810) panicked at src/lib.rs:11:19:
boom at top
stack backtrace:
   0: __rustc::rust_begin_unwind
             at /rustc/59807616e1fa2540724bfbac14d7976d7e4a3860/library/std/src/panicking.rs:689:5
   1: core::panicking::panic_fmt
             at /rustc/59807616e1fa2540724bfbac14d7976d7e4a3860/library/core/src/panicking.rs:80:14
   2: mathx::tests::panics
             at ./src/lib.rs:11:19
   3: mathx::tests::panics::{{closure}}
             at ./src/lib.rs:11:16
   4: core::ops::function::FnOnce::call_once
             at /rustc/59807616e1fa2540724bfbac14d7976d7e4a3860/library/core/src/ops/function.rs:250:5
   5: <fn() -> core::result::Result<(), alloc::string::String> as core::ops::function::FnOnce<()>>::call_once
             at /rustc/59807616e1fa2540724bfbac14d7976d7e4a3860/library/core/src/ops/function.rs:250:5
note: Some details are omitted, run with \`RUST_BACKTRACE=full\` for a verbose backtrace.

---- tests::subtracts stdout ----

thread 'tests::subtracts' (29811) panicked at src/lib.rs:9:22:
assertion \`left == right\` failed
  left: 2
 right: 3
stack backtrace:
   0: __rustc::rust_begin_unwind
             at /rustc/59807616e1fa2540724bfbac14d7976d7e4a3860/library/std/src/panicking.rs:689:5
   1: core::panicking::panic_fmt
             at /rustc/59807616e1fa2540724bfbac14d7976d7e4a3860/library/core/src/panicking.rs:80:14
   2: core::panicking::assert_failed_inner
             at /rustc/59807616e1fa2540724bfbac14d7976d7e4a3860/library/core/src/panicking.rs:439:17
   3: core::panicking::assert_failed::<i32, i32>
             at /rustc/59807616e1fa2540724bfbac14d7976d7e4a3860/library/core/src/panicking.rs:394:5
   4: mathx::tests::subtracts
             at ./src/lib.rs:9:22
   5: mathx::tests::subtracts::{{closure}}
             at ./src/lib.rs:9:19
   6: core::ops::function::FnOnce::call_once
             at /rustc/59807616e1fa2540724bfbac14d7976d7e4a3860/library/core/src/ops/function.rs:250:5
   7: <fn() -> core::result::Result<(), alloc::string::String> as core::ops::function::FnOnce<()>>::call_once
             at /rustc/59807616e1fa2540724bfbac14d7976d7e4a3860/library/core/src/ops/function.rs:250:5
note: Some details are omitted, run with \`RUST_BACKTRACE=full\` for a verbose backtrace.


failures:
    tests::panics
    tests::subtracts

test result: FAILED. 1 passed; 2 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.09s

error: test failed, to rerun pass \`--lib\`
`;
