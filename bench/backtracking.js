// Patterns the linear-time engine does not run (runtime/linear-regexp.ts), before and after:
// V8's RegExp as it is (what the check ran before) against what the check runs now, the
// median of 5 runs of one `test`. `^(a+){1,5000}$` is now collapsed to `a+` and runs linearly;
// `^(a{1,100}){1,100}$` and a backreference stay on V8, stopped at 100 ms a value by `node:vm`.
//
//   npm run build && node bench/backtracking.js
"use strict";
const { linearRegExp, PatternTooSlow } = require("../dist/runtime/linear-regexp");

const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];
const time = (fn, runs = 5) =>
  median(
    Array.from({ length: runs }, () => {
      const started = performance.now();
      fn();
      return performance.now() - started;
    }),
  );
const ms = (value) => `${value < 10 ? value.toFixed(2) : value.toFixed(0)} ms`;

/** One pattern on one text; `v8` false where V8 as it is would run for hours (it is not run). */
function row(pattern, text, label, v8 = true) {
  const native = new RegExp(pattern, "u");
  const engine = linearRegExp(pattern);
  const before = v8 ? ms(time(() => native.test(text), text.length > 22 ? 1 : 5)) : "hours (not run)";
  let outcome = "";
  const after = time(() => {
    try {
      outcome = String(engine.test(text));
    } catch (error) {
      if (!(error instanceof PatternTooSlow)) throw error;
      outcome = "refused";
    }
  });
  console.log(`${pattern} on ${label}: V8 ${before}; now ${ms(after)} (${engine.constructor.name}, ${outcome})`);
}

for (const n of [20, 22, 24]) row("^(a+){1,5000}$", `${"a".repeat(n)}!`, `${n} a + !`);
row("^(a+){1,5000}$", `${"a".repeat(100_000)}!`, "100,000 a + !", false);
for (const n of [20, 22, 24]) row("^(a{1,100}){1,100}$", `${"a".repeat(n)}!`, `${n} a + !`);
row("^(a{1,100}){1,100}$", `${"a".repeat(40)}!`, "40 a + !", false);
// What node:vm costs a value that needs no stopping: the backtracking engine's overhead.
const benign = linearRegExp("^(\\w)\\1$");
const native = /^(\w)\1$/u;
const each = (fn) =>
  time(() => {
    for (let i = 0; i < 1000; i++) fn();
  }) / 1000;
console.log(
  `^(\\w)\\1$ on "aa": V8 ${(each(() => native.test("aa")) * 1000).toFixed(2)} µs; now ${(each(() => benign.test("aa")) * 1000).toFixed(1)} µs a value`,
);
