// Outputs below were captured from real runs of mocha 12 (spec and tap reporters) and tape 5 on a small
// suite; the directory they ran in is renamed to the sandbox's /workspace.

export const MOCHA_SPEC = `

  math
    ✔ adds
    1) subtracts
    nested
      2) multiplies

  other
    3) throws
    ✔ passes too


  2 passing (6ms)
  3 failing

  1) math
       subtracts:

      AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:

2 !== 3

      + expected - actual

      -2
      +3
      
      at Context.<anonymous> (test/math.test.js:4:34)
      at process.processImmediate (node:internal/timers:483:21)

  2) math
       nested
         multiplies:

      AssertionError [ERR_ASSERTION]: Expected values to be strictly deep-equal:
+ actual - expected

  {
+   a: 6
-   a: 7
  }
      + expected - actual

       {
      -  "a": 6
      +  "a": 7
       }
      
      at Context.<anonymous> (test/math.test.js:6:37)
      at process.processImmediate (node:internal/timers:483:21)

  3) other
       throws:
     Error: boom at top
      at Context.<anonymous> (test/math.test.js:10:30)
      at process.processImmediate (node:internal/timers:483:21)



`;

export const MOCHA_TAP = `ok 1 math adds
not ok 2 math subtracts
  Expected values to be strictly equal:
  
  2 !== 3
  
  AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:
  
  2 !== 3
  
      at Context.<anonymous> (test/math.test.js:4:34)
      at process.processImmediate (node:internal/timers:483:21)
not ok 3 math nested multiplies
  Expected values to be strictly deep-equal:
  + actual - expected
  
    {
  +   a: 6
  -   a: 7
    }
  AssertionError [ERR_ASSERTION]: Expected values to be strictly deep-equal:
  + actual - expected
  
    {
  +   a: 6
  -   a: 7
    }
      at Context.<anonymous> (test/math.test.js:6:37)
      at process.processImmediate (node:internal/timers:483:21)
not ok 4 other throws
  boom at top
  Error: boom at top
      at Context.<anonymous> (test/math.test.js:10:30)
      at process.processImmediate (node:internal/timers:483:21)
ok 5 other passes too
# tests 5
# pass 2
# fail 3
1..5
`;

export const TAPE = `TAP version 13
# math adds
ok 1 one plus one
# math subtracts
not ok 2 five minus three
  ---
    operator: equal
    expected: 3
    actual:   2
    at: Test.<anonymous> (/workspace/tape.test.js:3:35)
    stack: |-
      Error: five minus three
          at Test.assert [as _assert] (/workspace/node_modules/tape/lib/test.js:548:48)
          at Test.strictEqual (/workspace/node_modules/tape/lib/test.js:734:7)
          at Test.<anonymous> (/workspace/tape.test.js:3:35)
          at Test.run (/workspace/node_modules/tape/lib/test.js:151:28)
          at Immediate.next [as _onImmediate] (/workspace/node_modules/tape/lib/results.js:175:7)
          at process.processImmediate (node:internal/timers:483:21)
  ...
# deep
not ok 3 should be deeply equivalent
  ---
    operator: deepEqual
    expected: |-
      { a: 7 }
    actual: |-
      { a: 6 }
    at: Test.<anonymous> (/workspace/tape.test.js:4:25)
    stack: |-
      Error: should be deeply equivalent
          at Test.assert [as _assert] (/workspace/node_modules/tape/lib/test.js:548:48)
          at Test.tapeDeepEqual (/workspace/node_modules/tape/lib/test.js:815:7)
          at Test.<anonymous> (/workspace/tape.test.js:4:25)
          at Test.run (/workspace/node_modules/tape/lib/test.js:151:28)
          at Immediate.next [as _onImmediate] (/workspace/node_modules/tape/lib/results.js:175:7)
          at process.processImmediate (node:internal/timers:483:21)
  ...

1..3
# tests 3
# pass  1
# fail  2

`;
