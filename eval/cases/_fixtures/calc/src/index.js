"use strict";

const { formatMoney } = require("./format.js");
const { mean, median } = require("./stats.js");
const { divide } = require("./ops/divide.js");

module.exports = { formatMoney, mean, median, divide };
