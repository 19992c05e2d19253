"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const { divide } = require("../src/ops/divide.js");

test("divides", () => {
  assert.equal(divide(9, 3), 3);
});

test("refuses a zero divisor", () => {
  assert.throws(() => divide(1, 0), /division by zero/);
});
