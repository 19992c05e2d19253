"use strict";

/** Division that refuses a zero divisor instead of returning Infinity. */
function divide(a, b) {
  if (b === 0) throw new RangeError("division by zero");
  return a / b;
}

module.exports = { divide };
