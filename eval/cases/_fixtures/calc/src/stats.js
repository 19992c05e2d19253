"use strict";

/** Arithmetic mean of a non-empty list of numbers. */
function mean(xs) {
  if (xs.length === 0) throw new RangeError("mean of an empty list");
  return xs.reduce((a, b) => a + b, 0) / xs.length;
}

/** Median of a non-empty list of numbers; the list is not modified. */
function median(xs) {
  if (xs.length === 0) throw new RangeError("median of an empty list");
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

module.exports = { mean, median };
