"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const { formatMoney } = require("../src/format.js");

test("formats whole and fractional amounts", () => {
  assert.equal(formatMoney(1234), "CHF 12.34");
  assert.equal(formatMoney(5), "CHF 0.05");
});

test("formats negative amounts in another currency", () => {
  assert.equal(formatMoney(-250, "EUR"), "-EUR 2.50");
});
