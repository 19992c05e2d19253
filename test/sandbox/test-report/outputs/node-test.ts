// Outputs below were captured from real `node --test` runs (Node 20.20) of a small suite; the
// directory they ran in is renamed to the sandbox's /workspace.

export const SPEC = `▶ math
  ✔ adds (1.025277ms)
  ✖ subtracts (1.715995ms)
    AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:
    
    2 !== 3
    
        at TestContext.<anonymous> (file:///workspace/math.test.mjs:5:36)
        at Test.runInAsyncScope (node:async_hooks:206:9)
        at Test.run (node:internal/test_runner/test:796:25)
        at Suite.processPendingSubtests (node:internal/test_runner/test:526:18)
        at Test.postRun (node:internal/test_runner/test:889:19)
        at Test.run (node:internal/test_runner/test:835:12)
        at async Promise.all (index 0)
        at async Suite.run (node:internal/test_runner/test:1135:7)
        at async Test.processPendingSubtests (node:internal/test_runner/test:526:7) {
      generatedMessage: true,
      code: 'ERR_ASSERTION',
      actual: 2,
      expected: 3,
      operator: 'strictEqual'
    }

  ▶ nested
    ✖ multiplies (1.895503ms)
      AssertionError [ERR_ASSERTION]: Expected values to be strictly deep-equal:
      + actual - expected
      
        {
      +   a: 6
      -   a: 7
        }
          at TestContext.<anonymous> (file:///workspace/math.test.mjs:7:39)
          at Test.runInAsyncScope (node:async_hooks:206:9)
          at Test.run (node:internal/test_runner/test:796:25)
          at Test.start (node:internal/test_runner/test:702:17)
          at node:internal/test_runner/test:1133:71
          at node:internal/per_context/primordials:482:82
          at new Promise (<anonymous>)
          at new SafePromise (node:internal/per_context/primordials:450:29)
          at node:internal/per_context/primordials:482:9
          at Array.map (<anonymous>) {
        generatedMessage: true,
        code: 'ERR_ASSERTION',
        actual: { a: 6 },
        expected: { a: 7 },
        operator: 'deepStrictEqual'
      }

  ✖ nested (2.085856ms)
✖ math (6.488343ms)
✖ top-level throws (1.741534ms)
  Error: boom at top
      at TestContext.<anonymous> (file:///workspace/math.test.mjs:10:40)
      at Test.runInAsyncScope (node:async_hooks:206:9)
      at Test.run (node:internal/test_runner/test:796:25)
      at Test.processPendingSubtests (node:internal/test_runner/test:526:18)
      at Suite.postRun (node:internal/test_runner/test:889:19)
      at Suite.run (node:internal/test_runner/test:1150:10)
      at async Test.processPendingSubtests (node:internal/test_runner/test:526:7)

✔ passes too (0.171766ms)
ℹ tests 5
ℹ suites 2
ℹ pass 2
ℹ fail 3
ℹ cancelled 0
ℹ skipped 0
ℹ todo 0
ℹ duration_ms 164.497655

✖ failing tests:

test at math.test.mjs:5:3
✖ subtracts (1.715995ms)
  AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:
  
  2 !== 3
  
      at TestContext.<anonymous> (file:///workspace/math.test.mjs:5:36)
      at Test.runInAsyncScope (node:async_hooks:206:9)
      at Test.run (node:internal/test_runner/test:796:25)
      at Suite.processPendingSubtests (node:internal/test_runner/test:526:18)
      at Test.postRun (node:internal/test_runner/test:889:19)
      at Test.run (node:internal/test_runner/test:835:12)
      at async Promise.all (index 0)
      at async Suite.run (node:internal/test_runner/test:1135:7)
      at async Test.processPendingSubtests (node:internal/test_runner/test:526:7) {
    generatedMessage: true,
    code: 'ERR_ASSERTION',
    actual: 2,
    expected: 3,
    operator: 'strictEqual'
  }

test at math.test.mjs:7:5
✖ multiplies (1.895503ms)
  AssertionError [ERR_ASSERTION]: Expected values to be strictly deep-equal:
  + actual - expected
  
    {
  +   a: 6
  -   a: 7
    }
      at TestContext.<anonymous> (file:///workspace/math.test.mjs:7:39)
      at Test.runInAsyncScope (node:async_hooks:206:9)
      at Test.run (node:internal/test_runner/test:796:25)
      at Test.start (node:internal/test_runner/test:702:17)
      at node:internal/test_runner/test:1133:71
      at node:internal/per_context/primordials:482:82
      at new Promise (<anonymous>)
      at new SafePromise (node:internal/per_context/primordials:450:29)
      at node:internal/per_context/primordials:482:9
      at Array.map (<anonymous>) {
    generatedMessage: true,
    code: 'ERR_ASSERTION',
    actual: { a: 6 },
    expected: { a: 7 },
    operator: 'deepStrictEqual'
  }

test at math.test.mjs:10:1
✖ top-level throws (1.741534ms)
  Error: boom at top
      at TestContext.<anonymous> (file:///workspace/math.test.mjs:10:40)
      at Test.runInAsyncScope (node:async_hooks:206:9)
      at Test.run (node:internal/test_runner/test:796:25)
      at Test.processPendingSubtests (node:internal/test_runner/test:526:18)
      at Suite.postRun (node:internal/test_runner/test:889:19)
      at Suite.run (node:internal/test_runner/test:1150:10)
      at async Test.processPendingSubtests (node:internal/test_runner/test:526:7)
`;

export const TAP = `TAP version 13
# Subtest: math
    # Subtest: adds
    ok 1 - adds
      ---
      duration_ms: 0.747093
      ...
    # Subtest: subtracts
    not ok 2 - subtracts
      ---
      duration_ms: 1.271894
      location: '/workspace/math.test.mjs:5:3'
      failureType: 'testCodeFailure'
      error: |-
        Expected values to be strictly equal:
        
        2 !== 3
        
      code: 'ERR_ASSERTION'
      name: 'AssertionError'
      expected: 3
      actual: 2
      operator: 'strictEqual'
      stack: |-
        TestContext.<anonymous> (file:///workspace/math.test.mjs:5:36)
        Test.runInAsyncScope (node:async_hooks:206:9)
        Test.run (node:internal/test_runner/test:796:25)
        Suite.processPendingSubtests (node:internal/test_runner/test:526:18)
        Test.postRun (node:internal/test_runner/test:889:19)
        Test.run (node:internal/test_runner/test:835:12)
        async Promise.all (index 0)
        async Suite.run (node:internal/test_runner/test:1135:7)
        async Test.processPendingSubtests (node:internal/test_runner/test:526:7)
      ...
    # Subtest: nested
        # Subtest: multiplies
        not ok 1 - multiplies
          ---
          duration_ms: 1.69832
          location: '/workspace/math.test.mjs:7:5'
          failureType: 'testCodeFailure'
          error: |-
            Expected values to be strictly deep-equal:
            + actual - expected
            
              {
            +   a: 6
            -   a: 7
              }
          code: 'ERR_ASSERTION'
          name: 'AssertionError'
          expected:
            a: 7
          actual:
            a: 6
          operator: 'deepStrictEqual'
          stack: |-
            TestContext.<anonymous> (file:///workspace/math.test.mjs:7:39)
            Test.runInAsyncScope (node:async_hooks:206:9)
            Test.run (node:internal/test_runner/test:796:25)
            Test.start (node:internal/test_runner/test:702:17)
            node:internal/test_runner/test:1133:71
            node:internal/per_context/primordials:482:82
            new Promise (<anonymous>)
            new SafePromise (node:internal/per_context/primordials:450:29)
            node:internal/per_context/primordials:482:9
            Array.map (<anonymous>)
          ...
        1..1
    not ok 3 - nested
      ---
      duration_ms: 1.863986
      type: 'suite'
      location: '/workspace/math.test.mjs:6:3'
      failureType: 'subtestsFailed'
      error: '1 subtest failed'
      code: 'ERR_TEST_FAILURE'
      ...
    1..3
not ok 1 - math
  ---
  duration_ms: 5.263488
  type: 'suite'
  location: '/workspace/math.test.mjs:3:1'
  failureType: 'subtestsFailed'
  error: '2 subtests failed'
  code: 'ERR_TEST_FAILURE'
  ...
# Subtest: top-level throws
not ok 2 - top-level throws
  ---
  duration_ms: 1.61843
  location: '/workspace/math.test.mjs:10:1'
  failureType: 'testCodeFailure'
  error: 'boom at top'
  code: 'ERR_TEST_FAILURE'
  stack: |-
    TestContext.<anonymous> (file:///workspace/math.test.mjs:10:40)
    Test.runInAsyncScope (node:async_hooks:206:9)
    Test.run (node:internal/test_runner/test:796:25)
    Test.processPendingSubtests (node:internal/test_runner/test:526:18)
    Suite.postRun (node:internal/test_runner/test:889:19)
    Suite.run (node:internal/test_runner/test:1150:10)
    async Test.processPendingSubtests (node:internal/test_runner/test:526:7)
  ...
# Subtest: passes too
ok 3 - passes too
  ---
  duration_ms: 0.215731
  ...
1..3
# tests 5
# suites 2
# pass 2
# fail 3
# cancelled 0
# skipped 0
# todo 0
# duration_ms 165.593591
`;

export const PASSING = `✔ fine (4.948269ms)
﹣ later (0.189973ms) # SKIP
ℹ tests 2
ℹ suites 0
ℹ pass 1
ℹ fail 0
ℹ cancelled 0
ℹ skipped 1
ℹ todo 0
ℹ duration_ms 459.366346
`;
