// Outputs captured from real runs of jest 30.5 (`--ci`, `--ci --verbose`) on a small suite; the
// directory they ran in is renamed to the sandbox's /workspace.

export const JEST = `FAIL test/math.test.js
  ● math › subtracts

    assert.strictEqual(received, expected)

    Expected value to strictly be equal to:
      3
    Received:
      2

      2 | describe("math", () => {
      3 |   it("adds", () => { assert.strictEqual(1 + 1, 2); });
    > 4 |   it("subtracts", () => { assert.strictEqual(5 - 3, 3); });
        |                                  ^
      5 |   describe("nested", () => {
      6 |     it("multiplies", () => { assert.deepStrictEqual({ a: 2 * 3 }, { a: 7 }); });
      7 |   });

      at Object.strictEqual (test/math.test.js:4:34)

  ● math › nested › multiplies

    assert.deepStrictEqual(received, expected)

    Expected value to deeply and strictly equal to:
      {"a": 7}
    Received:
      {"a": 6}

    Difference:

    - Expected
    + Received

      Object {
    -   "a": 7,
    +   "a": 6,
      }

      4 |   it("subtracts", () => { assert.strictEqual(5 - 3, 3); });
      5 |   describe("nested", () => {
    > 6 |     it("multiplies", () => { assert.deepStrictEqual({ a: 2 * 3 }, { a: 7 }); });
        |                                     ^
      7 |   });
      8 | });
      9 | describe("other", () => {

      at Object.deepStrictEqual (test/math.test.js:6:37)

  ● other › throws

    boom at top

       8 | });
       9 | describe("other", () => {
    > 10 |   it("throws", () => { throw new Error("boom at top"); });
         |                              ^
      11 |   it("passes too", () => {});
      12 | });
      13 |

      at Object.<anonymous> (test/math.test.js:10:30)

FAIL test/expect.test.js
  ● uses expect

    expect(received).toEqual(expected) // deep equality

    - Expected  - 1
    + Received  + 1

      Array [
        1,
    -   3,
    +   2,
      ]

    > 1 | test("uses expect", () => { expect([1, 2]).toEqual([1, 3]); });
        |                                            ^
      2 | test("ok one", () => { expect(1).toBe(1); });
      3 |

      at Object.toEqual (test/expect.test.js:1:44)

Test Suites: 2 failed, 2 total
Tests:       4 failed, 3 passed, 7 total
Snapshots:   0 total
Time:        0.447 s
Ran all test suites.
`;

export const JEST_VERBOSE = `FAIL test/math.test.js
  math
    ✓ adds (1 ms)
    ✕ subtracts (2 ms)
    nested
      ✕ multiplies (1 ms)
  other
    ✕ throws
    ✓ passes too (1 ms)

  ● math › subtracts

    assert.strictEqual(received, expected)

    Expected value to strictly be equal to:
      3
    Received:
      2

      2 | describe("math", () => {
      3 |   it("adds", () => { assert.strictEqual(1 + 1, 2); });
    > 4 |   it("subtracts", () => { assert.strictEqual(5 - 3, 3); });
        |                                  ^
      5 |   describe("nested", () => {
      6 |     it("multiplies", () => { assert.deepStrictEqual({ a: 2 * 3 }, { a: 7 }); });
      7 |   });

      at Object.strictEqual (test/math.test.js:4:34)

  ● math › nested › multiplies

    assert.deepStrictEqual(received, expected)

    Expected value to deeply and strictly equal to:
      {"a": 7}
    Received:
      {"a": 6}

    Difference:

    - Expected
    + Received

      Object {
    -   "a": 7,
    +   "a": 6,
      }

      4 |   it("subtracts", () => { assert.strictEqual(5 - 3, 3); });
      5 |   describe("nested", () => {
    > 6 |     it("multiplies", () => { assert.deepStrictEqual({ a: 2 * 3 }, { a: 7 }); });
        |                                     ^
      7 |   });
      8 | });
      9 | describe("other", () => {

      at Object.deepStrictEqual (test/math.test.js:6:37)

  ● other › throws

    boom at top

       8 | });
       9 | describe("other", () => {
    > 10 |   it("throws", () => { throw new Error("boom at top"); });
         |                              ^
      11 |   it("passes too", () => {});
      12 | });
      13 |

      at Object.<anonymous> (test/math.test.js:10:30)

FAIL test/expect.test.js
  ✕ uses expect (4 ms)
  ✓ ok one (1 ms)

  ● uses expect

    expect(received).toEqual(expected) // deep equality

    - Expected  - 1
    + Received  + 1

      Array [
        1,
    -   3,
    +   2,
      ]

    > 1 | test("uses expect", () => { expect([1, 2]).toEqual([1, 3]); });
        |                                            ^
      2 | test("ok one", () => { expect(1).toBe(1); });
      3 |

      at Object.toEqual (test/expect.test.js:1:44)

Test Suites: 2 failed, 2 total
Tests:       4 failed, 3 passed, 7 total
Snapshots:   0 total
Time:        0.37 s, estimated 1 s
Ran all test suites.
`;

export const JEST_SUITE_ERROR = `FAIL broken/bad.test.js
  ● Test suite failed to run

    Jest encountered an unexpected token

    Jest failed to parse a file. This happens e.g. when your code or its dependencies use non-standard JavaScript syntax, or when Jest is not configured to support such syntax.

    Out of the box Jest supports Babel, which will be used to transform your files into valid JS based on your Babel configuration.

    By default "node_modules" folder is ignored by transformers.

    Here's what you can do:
     • If you are trying to use TypeScript, see https://jestjs.io/docs/getting-started#using-typescript
     • To have some of your "node_modules" files transformed, you can specify a custom "transformIgnorePatterns" in your config.
     • If you need a custom transformation, specify a "transform" option in your config.
     • If you simply want to mock your non-JS modules (e.g. binary assets) you can stub them out with the "moduleNameMapper" config option.

    You'll find more details and examples of these config options in the docs:
    https://jestjs.io/docs/configuration
    For information about custom transformations, see:
    https://jestjs.io/docs/code-transformation

    Details:

    SyntaxError: /workspace/broken/bad.test.js: Unexpected token (1:10)

    > 1 | const x = ;
        |           ^
      2 |

      at constructor (../../../../opt/runner/node_modules/@babel/parser/src/parse-error.ts:96:45)
      at Parser.toParseError [as raise] (../../../../opt/runner/node_modules/@babel/parser/src/tokenizer/index.ts:1563:19)
      at Parser.raise [as unexpected] (../../../../opt/runner/node_modules/@babel/parser/src/tokenizer/index.ts:1603:16)

Test Suites: 1 failed, 1 total
Tests:       0 total
Snapshots:   0 total
Time:        0.333 s
Ran all test suites.
`;

export const JEST_CONSOLE = `  console.log
    debug value 42

      at Object.log (c.test.js:1:41)

FAIL con/c.test.js
  ✕ logs then fails (65 ms)

  ● logs then fails

    expect(received).toBe(expected) // Object.is equality

    Expected: 3
    Received: 2

    > 1 | test("logs then fails", () => { console.log("debug value", 42); expect(2).toBe(3); });
        |                                                                           ^
      2 |

      at Object.toBe (c.test.js:1:75)

Test Suites: 1 failed, 1 total
Tests:       1 failed, 1 total
Snapshots:   0 total
Time:        1.335 s
Ran all test suites.
`;
