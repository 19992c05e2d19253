"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const { mean, median } = require("../src/stats.js");

test("mean", () => {
  assert.equal(mean([2, 4, 6]), 4);
  assert.throws(() => mean([]), RangeError);
});

test("median of odd and even lists", () => {
  assert.equal(median([3, 1, 2]), 2);
  assert.equal(median([4, 1, 3, 2]), 2.5);
});
