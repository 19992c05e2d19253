// Outputs below were captured from real runs of vitest 4.1 (`vitest run`, with and without colours, default
// and verbose reporters); the directory they ran in is renamed to the sandbox's /workspace.

export const PLAIN = `
 RUN  v4.1.12 /workspace

 ❯ math.test.js (5 tests | 3 failed) 12ms
     ✓ adds 2ms
     × subtracts 5ms
       × multiplies 2ms
     × throws 0ms
     ✓ passes too 0ms

⎯⎯⎯⎯⎯⎯⎯ Failed Tests 3 ⎯⎯⎯⎯⎯⎯⎯

 FAIL  math.test.js > math > subtracts
AssertionError: expected 2 to be 3 // Object.is equality

- Expected
+ Received

- 3
+ 2

 ❯ math.test.js:4:41
      2| describe("math", () => {
      3|   it("adds", () => { expect(1 + 1).toBe(2); });
      4|   it("subtracts", () => { expect(5 - 3).toBe(3); });
       |                                         ^
      5|   describe("nested", () => {
      6|     it("multiplies", () => { expect({ a: 2 * 3 }).toEqual({ a: 7 }); }…

⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[1/3]⎯

 FAIL  math.test.js > math > nested > multiplies
AssertionError: expected { a: 6 } to deeply equal { a: 7 }

- Expected
+ Received

  {
-   "a": 7,
+   "a": 6,
  }

 ❯ math.test.js:6:51
      4|   it("subtracts", () => { expect(5 - 3).toBe(3); });
      5|   describe("nested", () => {
      6|     it("multiplies", () => { expect({ a: 2 * 3 }).toEqual({ a: 7 }); }…
       |                                                   ^
      7|   });
      8| });

⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[2/3]⎯

 FAIL  math.test.js > other > throws
Error: boom at top
 ❯ math.test.js:10:30
      8| });
      9| describe("other", () => {
     10|   it("throws", () => { throw new Error("boom at top"); });
       |                              ^
     11|   it("passes too", () => {});
     12| });

⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[3/3]⎯


 Test Files  1 failed (1)
      Tests  3 failed | 2 passed (5)
   Start at  17:33:44
   Duration  227ms (transform 20ms, setup 0ms, import 35ms, tests 12ms, environment 0ms)

`;

export const COLOURED_VERBOSE = `
[1m[30m[46m RUN [49m[39m[22m [36mv4.1.12 [39m[90m/workspace[39m

 [32m✓[39m math.test.js[2m > [22mmath[2m > [22madds[32m 1[2mms[22m[39m
 [31m×[39m math.test.js[2m > [22mmath[2m > [22msubtracts[32m 5[2mms[22m[39m
[31m   → expected 2 to be 3 // Object.is equality[39m
 [31m×[39m math.test.js[2m > [22mmath[2m > [22mnested[2m > [22mmultiplies[32m 3[2mms[22m[39m
[31m   → expected { a: 6 } to deeply equal { a: 7 }[39m
 [31m×[39m math.test.js[2m > [22mother[2m > [22mthrows[32m 0[2mms[22m[39m
[31m   → boom at top[39m
 [32m✓[39m math.test.js[2m > [22mother[2m > [22mpasses too[32m 0[2mms[22m[39m

[31m⎯⎯⎯⎯⎯⎯⎯[39m[1m[41m Failed Tests 3 [49m[22m[31m⎯⎯⎯⎯⎯⎯⎯[39m

[41m[1m FAIL [22m[49m math.test.js[2m > [22mmath[2m > [22msubtracts
[31m[1mAssertionError[22m: expected 2 to be 3 // Object.is equality[39m

[32m- Expected[39m
[31m+ Received[39m

[32m- 3[39m
[31m+ 2[39m

[36m [2m❯[22m math.test.js:[2m4:41[22m[39m
    [90m  2|[39m [34mdescribe[39m([32m"math"[39m[33m,[39m () [33m=>[39m {
    [90m  3|[39m   [34mit[39m([32m"adds"[39m[33m,[39m () [33m=>[39m { [34mexpect[39m([34m1[39m [33m+[39m [34m1[39m)[33m.[39m[34mtoBe[39m([34m2[39m)[33m;[39m })[33m;[39m
    [90m  4|[39m   [34mit[39m([32m"subtracts"[39m[33m,[39m () [33m=>[39m { [34mexpect[39m([34m5[39m [33m-[39m [34m3[39m)[33m.[39m[34mtoBe[39m([34m3[39m)[33m;[39m })[33m;[39m
    [90m   |[39m                                         [31m^[39m
    [90m  5|[39m   [34mdescribe[39m([32m"nested"[39m[33m,[39m () [33m=>[39m {
    [90m  6|[39m     it("multiplies", () => { expect({ a: 2 * 3 }).toEqual({ a: 7 }); }…

[31m[2m⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[1/3]⎯[22m[39m

[41m[1m FAIL [22m[49m math.test.js[2m > [22mmath[2m > [22mnested[2m > [22mmultiplies
[31m[1mAssertionError[22m: expected { a: 6 } to deeply equal { a: 7 }[39m

[32m- Expected[39m
[31m+ Received[39m

[2m  {[22m
[32m-   "a": 7,[39m
[31m+   "a": 6,[39m
[2m  }[22m

[36m [2m❯[22m math.test.js:[2m6:51[22m[39m
    [90m  4|[39m   [34mit[39m([32m"subtracts"[39m[33m,[39m () [33m=>[39m { [34mexpect[39m([34m5[39m [33m-[39m [34m3[39m)[33m.[39m[34mtoBe[39m([34m3[39m)[33m;[39m })[33m;[39m
    [90m  5|[39m   [34mdescribe[39m([32m"nested"[39m[33m,[39m () [33m=>[39m {
    [90m  6|[39m     it("multiplies", () => { expect({ a: 2 * 3 }).toEqual({ a: 7 }); }…
    [90m   |[39m                                                   [31m^[39m
    [90m  7|[39m   })[33m;[39m
    [90m  8|[39m })[33m;[39m

[31m[2m⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[2/3]⎯[22m[39m

[41m[1m FAIL [22m[49m math.test.js[2m > [22mother[2m > [22mthrows
[31m[1mError[22m: boom at top[39m
[36m [2m❯[22m math.test.js:[2m10:30[22m[39m
    [90m  8|[39m })[33m;[39m
    [90m  9|[39m [34mdescribe[39m([32m"other"[39m[33m,[39m () [33m=>[39m {
    [90m 10|[39m   [34mit[39m([32m"throws"[39m[33m,[39m () [33m=>[39m { [35mthrow[39m [35mnew[39m [33mError[39m([32m"boom at top"[39m)[33m;[39m })[33m;[39m
    [90m   |[39m                              [31m^[39m
    [90m 11|[39m   [34mit[39m([32m"passes too"[39m[33m,[39m () [33m=>[39m {})[33m;[39m
    [90m 12|[39m })[33m;[39m

[31m[2m⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[3/3]⎯[22m[39m


[2m Test Files [22m [1m[31m1 failed[39m[22m[90m (1)[39m
[2m      Tests [22m [1m[31m3 failed[39m[22m[2m | [22m[1m[32m2 passed[39m[22m[90m (5)[39m
[2m   Start at [22m 17:33:41
[2m   Duration [22m 241ms[2m (transform 24ms, setup 0ms, import 35ms, tests 11ms, environment 0ms)[22m

`;

export const LOAD_ERROR = `
 RUN  v4.1.12 /workspace

 ❯ bad.test.js (0 test)

⎯⎯⎯⎯⎯⎯ Failed Suites 1 ⎯⎯⎯⎯⎯⎯⎯

 FAIL  bad.test.js [ bad.test.js ]
Error: Cannot find module './missing.js' imported from /workspace/bad.test.js
 ❯ bad.test.js:2:1
      1| import { it } from "vitest";
      2| import "./missing.js";
       | ^
      3| it("x", () => {});
      4|

⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[1/1]⎯


 Test Files  1 failed (1)
      Tests  no tests
   Start at  17:35:08
   Duration  351ms (transform 109ms, setup 0ms, import 0ms, tests 0ms, environment 0ms)

`;
