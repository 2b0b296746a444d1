// The linear-time pattern engine (runtime/linear-regexp.ts) against V8's RegExp, in process, on
// every kind of pattern typemcp writes itself (template literal types, number keys) and on a
// counted repetition (`^[a-z]{1,5000}$`): the median time of one `test` on strings of about 10,
// 1,000 and 1,000,000 characters that match and that fail at their end (a failure at the start
// costs both engines nothing). `mode` says which path ran: the DFA, the DFA with V8 scanning a
// state's loop (Scanner), the NFA, or the length bound alone.
//
// Then where users meet it, in fresh processes: each compiles one pattern (the number keys') on
// one engine and tests the 6-character key `1.5e-7`, timing the first call (compiling the pattern
// included: V8 compiles its own at its first test) and the calls up to the 1,000th and the
// 10,000th, before and while V8 optimizes the engine's code; medians of FRESH processes each.
//
//   npm run build && node bench/patterns.js [--json]
"use strict";
const { execFileSync } = require("node:child_process");
const { linearRegExp, LinearRegExp } = require("../dist/runtime/linear-regexp");
const { placeholdersPattern, NUMERIC_KEY } = require("../dist/transformer/model/parsers/template-literal");

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** What fills a placeholder with about `size` characters: digits for numbers, letters for strings. */
const FILL = {
  number: (size) => "7".repeat(size),
  bigint: (size) => "1" + "0".repeat(size - 1),
  string: (size) => "a".repeat(size),
};

/** Template literal types as [name, texts, placeholders, a text that makes a matching string fail at its end]. */
const TEMPLATES = [
  ["`${number}.${number}.${number}`", ["", ".", ".", ""], ["number", "number", "number"], "x"],
  ["`user_${number}`", ["user_", ""], ["number"], "x"],
  ["`${number}ab${number}`", ["", "ab", ""], ["number", "number"], "x"],
  ["`${string}:${string}`", ["", ":", ""], ["string", "string"], undefined],
  ["`${string}::${number}`", ["", "::", ""], ["string", "number"], "x"],
  ["`id-${string}`", ["id-", ""], ["string"], undefined],
  ["`v${bigint}`", ["v", ""], ["bigint"], "x"],
  ["`${bigint}-${bigint}`", ["", "-", ""], ["bigint", "bigint"], "x"],
  ["`${number}${string}`", ["", "", ""], ["number", "string"], undefined],
];

function cases(length) {
  const out = [];
  for (const [name, texts, kinds, breaker] of TEMPLATES) {
    const each = Math.max(1, Math.floor((length - texts.join("").length) / kinds.length));
    let text = texts[0];
    kinds.forEach((kind, i) => {
      text += texts[i + 1] === "" && i < kinds.length - 1 ? FILL[kind](1) : FILL[kind](each);
      text += texts[i + 1];
    });
    out.push({ name, pattern: placeholdersPattern(texts, kinds), text, matches: true });
    // A failure at the end where the pattern has one; else (a string placeholder last) a wrong first text.
    if (breaker) out.push({ name, pattern: placeholdersPattern(texts, kinds), text: text + breaker, matches: false });
    else if (texts[0]) out.push({ name, pattern: placeholdersPattern(texts, kinds), text: "x" + text, matches: false });
  }
  // Number keys: no long key matches; a run of digits fails at its end.
  out.push({ name: "number keys", pattern: NUMERIC_KEY, text: `${"9".repeat(length - 1)}x`, matches: false });
  out.push({ name: "number keys", pattern: NUMERIC_KEY, text: "1.5e-7", matches: true });
  // A counted repetition: up to 5,000 letters match; a longer text fails.
  const letters = "a".repeat(Math.min(length, 5000) - 1);
  out.push({ name: "`^[a-z]{1,5000}$`", pattern: "^[a-z]{1,5000}$", text: `${letters}a`, matches: true });
  out.push({ name: "`^[a-z]{1,5000}$`", pattern: "^[a-z]{1,5000}$", text: `${letters}!`, matches: false });
  if (length > 5000)
    out.push({ name: "`^[a-z]{1,5000}$`", pattern: "^[a-z]{1,5000}$", text: "a".repeat(length), matches: false });
  return out;
}

function timeOf(regExp, text, expected, budgetMs) {
  if (regExp.test(text) !== expected) throw new Error(`${regExp} answered wrongly on ${text.slice(0, 40)}…`);
  // Repeat within a sample so that a sample lasts about a millisecond at least.
  const start = process.hrtime.bigint();
  regExp.test(text);
  const once = Number(process.hrtime.bigint() - start) / 1e6;
  const repeat = Math.max(1, Math.min(1000, Math.ceil(1 / Math.max(once, 1e-4))));
  const samples = [];
  const deadline = Date.now() + budgetMs;
  while (samples.length < 5 || (Date.now() < deadline && samples.length < 51)) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < repeat; i++) regExp.test(text);
    samples.push(Number(process.hrtime.bigint() - t0) / 1e6 / repeat);
  }
  return median(samples);
}

// Both engines' code is warmed before anything is timed: else the first rows measure code V8
// has not optimized yet (the 10-character rows came out 2 to 5 times slower).
for (const length of [10, 1_000])
  for (const { pattern, text } of cases(length)) {
    const linear = linearRegExp(pattern);
    const v8 = new RegExp(pattern, "u");
    for (let i = 0; i < 2000; i++) {
      linear.test(text);
      v8.test(text);
    }
  }

const rows = [];
for (const length of [10, 1_000, 1_000_000]) {
  for (const { name, pattern, text, matches } of cases(length)) {
    const linear = linearRegExp(pattern);
    const v8 = new RegExp(pattern, "u");
    const budget = length >= 1_000_000 ? 3000 : 600;
    const linearMs = timeOf(linear, text, matches, budget);
    const v8Ms = timeOf(v8, text, matches, budget);
    const mode = !(linear instanceof LinearRegExp)
      ? "V8"
      : linear.outsideLength
        ? "length"
        : linear.nfaSteps
          ? "NFA"
          : linear.scanned
            ? "DFA+scan"
            : "DFA";
    rows.push({ name, length: text.length, matches, linearMs, v8Ms, ratio: linearMs / v8Ms, mode });
  }
}

/** Fresh processes per engine; they alternate, so that the machine's load falls on both alike. */
const FRESH = 9;
const FRESH_CALLS = [1, 1_000, 10_000];

/** In a fresh process: the time of the first call and of the calls up to each of FRESH_CALLS (ms). */
function freshRun(engine) {
  const program = `
    const { linearRegExp } = require(${JSON.stringify(require.resolve("../dist/runtime/linear-regexp"))});
    const { NUMERIC_KEY } = require(${JSON.stringify(require.resolve("../dist/transformer/model/parsers/template-literal"))});
    const ends = ${JSON.stringify(FRESH_CALLS)};
    const times = [];
    const start = process.hrtime.bigint();
    const regExp = ${engine === "linear" ? "linearRegExp(NUMERIC_KEY)" : 'new RegExp(NUMERIC_KEY, "u")'};
    let calls = 0;
    for (const end of ends) {
      for (; calls < end; calls++) if (!regExp.test("1.5e-7")) throw new Error("1.5e-7 refused");
      times.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
    console.log(JSON.stringify(times));`;
  return JSON.parse(execFileSync(process.execPath, ["-e", program], { encoding: "utf8" }));
}

const fresh = { linear: [], v8: [] };
for (let i = 0; i < FRESH; i++) for (const engine of ["linear", "v8"]) fresh[engine].push(freshRun(engine));
const freshRows = FRESH_CALLS.map((calls, i) => {
  const linearMs = median(fresh.linear.map((times) => times[i]));
  const v8Ms = median(fresh.v8.map((times) => times[i]));
  return { name: "number keys, fresh process", text: "1.5e-7", calls, linearMs, v8Ms, ratio: linearMs / v8Ms };
});

if (process.argv.includes("--json")) console.log(JSON.stringify({ rows, fresh: freshRows }));
else {
  const ms = (v) => (v >= 10 ? v.toFixed(0) : v >= 0.1 ? v.toFixed(2) : v.toFixed(4));
  console.log("| pattern | characters | matches | linear (ms) | V8 (ms) | ratio | mode |");
  console.log("|---|---:|---|---:|---:|---:|---|");
  for (const r of rows)
    console.log(
      `| ${r.name} | ${r.length.toLocaleString("en")} | ${r.matches ? "yes" : "no"} | ${ms(r.linearMs)} | ${ms(r.v8Ms)} | ${r.ratio.toFixed(2)} | ${r.mode} |`,
    );
  console.log(`\nIn fresh processes (median of ${FRESH} each), from compiling the pattern to the last call counted:\n`);
  console.log("| pattern | text | calls | linear (ms) | V8 (ms) | ratio |");
  console.log("|---|---|---:|---:|---:|---:|");
  for (const r of freshRows)
    console.log(
      `| ${r.name} | \`${r.text}\` | ${r.calls.toLocaleString("en")} | ${ms(r.linearMs)} | ${ms(r.v8Ms)} | ${r.ratio.toFixed(2)} |`,
    );
}
