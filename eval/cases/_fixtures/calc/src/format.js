"use strict";

/** Formats an amount in cents as a price, e.g. formatMoney(1234) === "CHF 12.34". */
function formatMoney(cents, currency = "CHF") {
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(cents);
  const units = Math.floor(abs / 100);
  const rest = String(abs % 100).padStart(2, "0");
  return `${sign}${currency} ${units}.${rest}`;
}

module.exports = { formatMoney };
