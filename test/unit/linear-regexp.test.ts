/**
 * runtime/linear-regexp.ts: the linear-time engine answers as V8's RegExp does (on patterns
 * written for its corners, the patterns typemcp generates, and random patterns and strings),
 * and its work stays within the pattern's size times the input's length on inputs that make a
 * backtracking engine take seconds.
 */
import fc from "fast-check";
import {
  backtrackingReason,
  BoundedRegExp,
  linearRegExp,
  LinearRegExp,
  PatternTooSlow,
} from "../../runtime/linear-regexp";
import { NUMERIC_KEY, placeholdersPattern, type Placeholder } from "../../transformer/model/parsers/template-literal";
import { fixtures } from "../support/fixtures";
import { numericKeyTexts, PREVIOUS_NUMERIC_KEY } from "../support/numeric-keys";

const agree = (pattern: string, texts: string[]) => {
  const native = new RegExp(pattern, "u");
  const linear = linearRegExp(pattern);
  expect(linear).toBeInstanceOf(LinearRegExp);
  for (const text of texts) expect([pattern, text, linear.test(text)]).toEqual([pattern, text, native.test(text)]);
};

const TEXTS = [
  "",
  "a",
  "aa",
  "ab",
  "ba",
  "abc",
  "aab",
  "a b",
  " 1",
  "1 ",
  "1.5",
  "-2e10",
  "0x1F",
  "\u00a01\u2028",
  "😀",
  "a😀b",
  "\n",
  "é",
  "É",
  "_",
  "user_42",
  "v1.2.3",
  "Infinity",
  "-0",
  "1e21",
  "9007199254740993",
];

test.each([
  "^a$",
  "a",
  "^(a|b)*$",
  "^(?:ab|a)+c?$",
  "^[a-z]{2,3}$",
  "^a{2}$",
  "^a{2,}$",
  "^\\d+(?:\\.\\d+)?$",
  "\\bfoo\\b",
  "\\Ba",
  "^.$",
  "^[^a]*$",
  "^[\\s\\S]*$",
  "^\\p{L}+$",
  "^\\P{L}$",
  "^\\u{1F600}$",
  "^\\uD83D\\uDE00$",
  "^[😀-😂]$",
  "^\\x41$",
  "^\\cJ$",
  "^(?!-0$)-?\\d+$",
  "^(?=a)\\w+$",
  "^(?:(?!bc)[\\s\\S])*$",
  "(?<name>a)b",
  "^(a*)*$",
  "^(a|)*b$",
  "^$",
  "|",
  "^(?:a?){3}$",
  "^\\s*$",
  "a*?b",
  "^[\\]\\\\]$",
  "^[.]$",
  "^\\.$",
  "^[-a]$",
  "^\\/$",
  NUMERIC_KEY,
])("%s answers as V8 does", (pattern) => agree(pattern, TEXTS));

/** Every pattern the fixtures publish (template literals, numeric keys, tags, JSDoc): typemcp's own patterns. */
function fixturePatterns(): string[] {
  const found = new Set<string>();
  const walk = (node: unknown): void => {
    if (node === null || typeof node !== "object") return;
    for (const [key, value] of Object.entries(node)) {
      if (key === "pattern" && typeof value === "string") found.add(value);
      if (key === "patternProperties" && value && typeof value === "object")
        for (const pattern of Object.keys(value)) found.add(pattern);
      walk(value);
    }
  };
  for (const fixture of fixtures()) walk(fixture.expected.tools);
  return [...found];
}

test("every pattern the fixtures publish answers as V8 does, on strings near their edges", () => {
  const patterns = fixturePatterns();
  expect(patterns.length).toBeGreaterThan(10);
  const texts = [
    ...TEXTS,
    "user_",
    "user_1",
    "user_1.5e3",
    "user_ 1 ",
    "id-12-x",
    "GET /",
    "POST /a",
    "a@b",
    "@",
    "1.8e308%",
    "0.001e310%",
    "1e-400",
    "0b101",
    "0o17",
    "0x",
    ".5",
    "5.",
    "+.5e-3",
  ];
  for (const pattern of patterns) agree(pattern, texts);
});

test("random patterns and strings: the same answers as V8", () => {
  const atom = fc.constantFrom(
    "a",
    "b",
    ".",
    "\\d",
    "\\s",
    "[ab]",
    "[^a]",
    "\\w",
    "(?:a|b)",
    "(?:ab)",
    "(?!a)",
    "(?=b)",
    "^",
    "$",
    "\\b",
    "x",
  );
  const quantifier = fc.constantFrom("", "", "*", "+", "?", "{2}", "{1,3}", "{0,}", "*?");
  const term = fc.tuple(atom, quantifier).map(([a, q]) => (/^[\^$]|^\\b|^\(\?[=!]/.test(a) && q.length ? a : a + q));
  const pattern = fc
    .array(
      fc.array(term, { maxLength: 5 }).map((t) => t.join("")),
      { minLength: 1, maxLength: 3 },
    )
    .map((alternatives) => alternatives.join("|"));
  const text = fc.string({ unit: fc.constantFrom("a", "b", "1", " ", "x", "_", "😀"), maxLength: 8 });
  fc.assert(
    fc.property(pattern, fc.array(text, { minLength: 1, maxLength: 8 }), (p, texts) => {
      const native = new RegExp(p, "u");
      const linear = linearRegExp(p);
      for (const t of texts)
        if (linear.test(t) !== native.test(t))
          throw new Error(`${p} on ${JSON.stringify(t)}: ${linear.test(t)}, V8 ${native.test(t)}`);
    }),
    { seed: 20_2612, numRuns: 2000 },
  );
});

/**
 * Every pattern typemcp writes for a template literal type: one to three placeholders of each
 * kind, between texts of none, one and two characters (the text between two placeholders is
 * where TypeScript cuts, so it is what the lookaheads guard).
 */
function templatePatterns(): string[] {
  const kinds: Placeholder[] = ["string", "number", "bigint"];
  const texts = ["", ".", "ab", "::", "e"];
  const out = new Set<string>();
  const add = (chosen: Placeholder[], between: string[]) => out.add(placeholdersPattern(between, chosen));
  for (const a of kinds) {
    add([a], ["", ""]);
    add([a], ["v", ""]);
    for (const b of kinds)
      for (const t of texts) {
        add([a, b], ["", t, ""]);
        add([a, b], ["x", t, "!"]);
        for (const c of kinds) add([a, b, c], ["", t, t === "" ? "." : t, ""]);
      }
  }
  return [...out];
}

test("every pattern typemcp writes answers as V8 does, on generated strings, as a DFA (no NFA step)", () => {
  const patterns = [...templatePatterns(), NUMERIC_KEY];
  expect(patterns.length).toBe(232);
  const text = fc.string({
    unit: fc.constantFrom("1", "0", "9", ".", "a", "b", ":", "e", "E", "-", "+", " ", "x", "!", "v", "\u00a0", "😀"),
    maxLength: 14,
  });
  const texts = [
    ...fc.sample(text, { seed: 26, numRuns: 150 }),
    ...["1.2.3", "1ab2", "a::1", "x1e5!", "v-12", " 1 . 2 ", "1e308.0x1F.0b1", "-0", "1e21"],
  ];
  const differences: unknown[] = [];
  for (const pattern of patterns) {
    const native = new RegExp(pattern, "u");
    const linear = linearRegExp(pattern) as InstanceType<typeof LinearRegExp>;
    expect(linear).toBeInstanceOf(LinearRegExp);
    for (const t of texts) {
      const answer = linear.test(t);
      if (answer !== native.test(t) || linear.nfaSteps !== 0)
        differences.push({ pattern, text: t, answer, nfaSteps: linear.nfaSteps });
    }
  }
  expect(differences).toEqual([]);
});

test("the number keys' pattern, and the one with lookaheads earlier builds wrote (contracts built then still carry it), answer as V8 does on every generated key, as a DFA", () => {
  const texts = numericKeyTexts();
  for (const pattern of [NUMERIC_KEY, PREVIOUS_NUMERIC_KEY]) {
    const native = new RegExp(pattern, "u");
    const linear = linearRegExp(pattern) as LinearRegExp;
    expect(linear).toBeInstanceOf(LinearRegExp);
    const differences: unknown[] = [];
    for (const text of texts) {
      const answer = linear.test(text);
      if (answer !== native.test(text) || linear.nfaSteps !== 0)
        differences.push({ pattern, text, answer, nfaSteps: linear.nfaSteps });
    }
    expect(differences).toEqual([]);
  }
});

test("the three-number pattern on 300,000 characters: V8's answers, one DFA lookup per character", () => {
  const pattern = placeholdersPattern(["", ".", ".", ""], ["number", "number", "number"]);
  const linear = linearRegExp(pattern) as InstanceType<typeof LinearRegExp>;
  const digits = "7".repeat(100_000);
  for (const [t, expected] of [
    [`${digits}.${digits}.${digits}`, true],
    [`${digits}.${digits}.${digits}x`, false],
    [`${digits}.${digits}`, false],
    [`${digits}e5.${digits}.0x${"f".repeat(1000)}`, true],
    [`${digits}e5.${digits}.0x${"f".repeat(1000)}g`, false],
  ] as const) {
    expect(linear.test(t)).toBe(expected);
    expect(new RegExp(pattern, "u").test(t)).toBe(expected);
    expect(linear.nfaSteps).toBe(0);
    // Once the DFA has its states, a text adds no NFA work: a few closures, whatever its length.
    expect(linear.visits).toBeLessThan(2000);
  }
});

test("\\b and lookaheads inside lookaheads are simulated as an NFA, with V8's answers", () => {
  for (const [pattern, text] of [
    ["\\bfoo\\b", "a foo b"],
    ["^(?=a(?!b))\\w+$", "ac"],
  ]) {
    const linear = linearRegExp(pattern) as InstanceType<typeof LinearRegExp>;
    expect(linear.test(text)).toBe(new RegExp(pattern, "u").test(text));
    expect(linear.nfaSteps).toBeGreaterThan(0);
  }
});

describe("the work is linear where backtracking is not", () => {
  const visits = (pattern: string, text: string) => {
    const engine = linearRegExp(pattern) as InstanceType<typeof LinearRegExp>;
    const verdict = engine.test(text);
    return { verdict, visits: engine.visits };
  };

  test.each([
    ["an author's ^(a+)+$ on 25 a and a !", "^(a+)+$", "a".repeat(25) + "!"],
    ["the same on 100,000 a and a !", "^(a+)+$", "a".repeat(100_000) + "!"],
    [
      "[0-9]+\\.?[0-9]*, quadratic when backtracking, on v + 30,000 digits + x",
      "^v(?:\\s*(?:[+-]?(?:[0-9]+\\.?[0-9]*|\\.[0-9]+))\\s*)$",
      "v" + "1".repeat(30_000) + "x",
    ],
    ["(a|aa)*b on 50,000 a", "(a|aa)*b", "a".repeat(50_000)],
  ])("%s: refused, in at most (program size) x (length + 1) steps", (_, pattern, text) => {
    const { verdict, visits: work } = visits(pattern, text);
    expect(verdict).toBe(false);
    expect(work).toBeLessThanOrEqual(pattern.length * 4 * (text.length + 1));
  });
});

test("backreferences, lookbehind and counted repetitions too large to write out are left to V8, each with its reason", () => {
  const reasons = Object.fromEntries(
    ["^(a)\\1$", "(?<=a)b", "(?<!a)b", "^(?<x>a)\\k<x>$", "^(a{1,100}){1,100}$", "^[a-z]+$"].map((p) => [
      p,
      backtrackingReason(p),
    ]),
  );
  expect(reasons).toEqual({
    "^(a)\\1$": "a backreference",
    "(?<=a)b": "a lookbehind",
    "(?<!a)b": "a lookbehind",
    "^(?<x>a)\\k<x>$": "a backreference",
    "^(a{1,100}){1,100}$": "counted repetitions that, written out, take more than 20,000 instructions",
    "^[a-z]+$": undefined,
  });
  for (const pattern of Object.keys(reasons).slice(0, 5)) expect(linearRegExp(pattern)).toBeInstanceOf(BoundedRegExp);
  expect(linearRegExp("^(a)\\1$").test("aa")).toBe(true);
  expect(linearRegExp("^(a)\\1$").test("ab")).toBe(false);
});

test("a backtracking pattern V8 cannot decide in time is stopped: PatternTooSlow, naming the pattern and why", () => {
  // ^(a{1,100}){1,100}$ on 40 a's and a !: V8 would backtrack for hours.
  const pattern = linearRegExp("^(a{1,100}){1,100}$") as BoundedRegExp;
  let thrown: unknown;
  try {
    pattern.test(`${"a".repeat(40)}!`, 50);
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(PatternTooSlow);
  expect((thrown as PatternTooSlow).message).toBe(
    `the pattern "^(a{1,100}){1,100}$" runs on V8's backtracking engine (it holds counted repetitions that, written out, take more than 20,000 instructions)`,
  );
  expect(pattern.test("aaa")).toBe(true); // the next value is checked as before
});

test("where node:vm is missing (Cloudflare Workers), a backtracking pattern runs on V8 as it is", () => {
  jest.isolateModules(() => {
    jest.doMock("node:vm", () => {
      throw new Error("No such module node:vm");
    });
    const isolated = require("../../runtime/linear-regexp") as typeof import("../../runtime/linear-regexp");
    const pattern = isolated.linearRegExp("^(a)\\1$");
    expect(pattern).toBeInstanceOf(isolated.BoundedRegExp);
    expect([pattern.test("aa"), pattern.test("ab")]).toEqual([true, false]);
  });
  jest.dontMock("node:vm");
});

test("a repetition of an unbounded repetition is collapsed: (a+){1,5000} runs linearly, as a+, with V8's answers", () => {
  const issue = linearRegExp("^(a+){1,5000}$");
  expect(issue).toBeInstanceOf(LinearRegExp);
  expect([issue.test(`${"a".repeat(28)}!`), issue.test("a".repeat(6000))]).toEqual([false, true]);
  const texts = ["", "a", "aa", "aaa", "aaaa", "b", "ab", "aab", "ba", "abab"];
  for (const pattern of [
    "^(a+){2,3}$",
    "^(a+){0,2}$",
    "^(?:a*){1,3}b$",
    "^(a+){3}$",
    "^(a+){0}$",
    "^((?:ab)+){2,}$",
    "^(a+|b)+$",
  ])
    for (const text of texts)
      expect([pattern, text, linearRegExp(pattern).test(text)]).toEqual([
        pattern,
        text,
        new RegExp(pattern, "u").test(text),
      ]);
});

test("an invalid pattern throws V8's own error", () => {
  expect(() => linearRegExp("[a-")).toThrow(SyntaxError);
});

test("a pattern whose DFA outgrows its room goes on with the NFA, with the same answers", () => {
  // (a|b)*a(a|b){12}: the DFA needs 2^13 states, past the 1,000 kept.
  const pattern = "^(?:a|b)*a(?:a|b){12}$";
  const texts = fc.sample(fc.string({ unit: fc.constantFrom("a", "b"), minLength: 10, maxLength: 40 }), {
    seed: 7,
    numRuns: 300,
  });
  agree(pattern, texts);
});

describe("a state that loops on one class: V8 scans the run, with V8's answers", () => {
  const digits = "7".repeat(100_000);
  test.each([
    ["`user_${number}`", placeholdersPattern(["user_", ""], ["number"]), `user_${digits}`, `user_${digits}x`],
    ["`v${bigint}`", placeholdersPattern(["v", ""], ["bigint"]), `v1${digits}`, `v1${digits}x`],
    ["`id-${string}`", placeholdersPattern(["id-", ""], ["string"]), `id-${"a".repeat(100_000)}`, `x${digits}`],
  ])("%s on 100,000 characters: no NFA step, the run scanned", (_, pattern, matching, failing) => {
    const linear = linearRegExp(pattern) as LinearRegExp;
    expect(linear).toBeInstanceOf(LinearRegExp);
    expect([linear.test(matching), linear.nfaSteps]).toEqual([true, 0]);
    // All but the first few characters (read from the table before the loop is known) and the last.
    expect(linear.scanned).toBeGreaterThan(100_000 - 40);
    expect(linear.test(failing)).toBe(false);
    expect(new RegExp(pattern, "u").test(failing)).toBe(false);
  });

  test("runs of every kind, broken anywhere, on every template pattern: V8's answers", () => {
    const unit = fc.constantFrom("7", "0", "1", "a", ".", "e", "-", " ", ":", "x", "\u00a0", "😀");
    const run = fc.tuple(unit, fc.integer({ min: 1, max: 40 })).map(([u, k]) => u.repeat(k));
    const texts = fc.sample(
      fc.array(run, { minLength: 1, maxLength: 5 }).map((runs) => runs.join("")),
      { seed: 5, numRuns: 60 },
    );
    const prefixed = texts.flatMap((t) => [t, `user_${t}`, `v${t}`, `id-${t}`, `x${t}!`, `1${t}`]);
    const differences: unknown[] = [];
    for (const pattern of templatePatterns()) {
      const native = new RegExp(pattern, "u");
      const linear = linearRegExp(pattern);
      for (const t of prefixed) if (linear.test(t) !== native.test(t)) differences.push({ pattern, text: t });
    }
    expect(differences).toEqual([]);
  });

  test("the loop as far as the table knows it grows with it: a run of mixed digits is scanned after each is met", () => {
    const pattern = placeholdersPattern(["user_", ""], ["number"]);
    const linear = linearRegExp(pattern) as LinearRegExp;
    const mixed = "1234567890".repeat(10_000);
    expect([linear.test(`user_${"7".repeat(1000)}`), linear.test(`user_${mixed}`)]).toEqual([true, true]);
    expect(linear.test(`user_${mixed}`)).toBe(true);
    expect(linear.scanned).toBeGreaterThan(100_000 - 40);
    expect(linear.test(`user_${mixed}z${mixed}`)).toBe(false);
  });

  test("a loop over every character stops before a surrogate pair that ends the text, and reads it whole", () => {
    for (const pattern of ["^id-[\\s\\S]*$", "^id-[\\s\\S]*😀$", "^id-[^😀]*😀$", "^id-(?:a|😀)*$"])
      for (const tail of ["😀", "a😀", "\ud83d", "\ude00", "😀😀"])
        agree(pattern, [`id-${"a".repeat(40)}${tail}`, `id-${"😀".repeat(30)}${tail}`, `id-${"b".repeat(40)}${tail}`]);
  });
});

describe("a counted repetition of one class runs as a loop within the length it implies", () => {
  test("^[a-z]{1,5000}$ on 2,000 letters (past the 1,000 DFA states written out): the DFA, no NFA step", () => {
    const linear = linearRegExp("^[a-z]{1,5000}$") as LinearRegExp;
    for (const [text, expected] of [
      ["a".repeat(2000), true],
      ["a".repeat(5000), true],
      [`${"a".repeat(1999)}!`, false],
      ["", false],
    ] as const) {
      expect([text.length, linear.test(text), linear.nfaSteps]).toEqual([text.length, expected, 0]);
      expect(new RegExp("^[a-z]{1,5000}$", "u").test(text)).toBe(expected);
    }
  });

  test("one class counted past what can be written out, between fixed-length parts, is run linearly, not left to V8", () => {
    expect([
      backtrackingReason("^id-[a-z]{1,50000}$"),
      backtrackingReason("^[a-z]{1,50000}-[0-9]{1,50000}$"),
      backtrackingReason("^(?:a|bc)[a-z]{1,50000}$"),
    ]).toEqual([
      undefined,
      "counted repetitions that, written out, take more than 20,000 instructions",
      "counted repetitions that, written out, take more than 20,000 instructions",
    ]);
    agree("^id-[a-z]{1,50000}$", [
      "id-",
      "id-a",
      `id-${"a".repeat(50_000)}`,
      `id-${"a".repeat(50_001)}`,
      `id-${"a".repeat(49_999)}1`,
    ]);
  });

  test("a text longer than the pattern can match is refused unread", () => {
    const linear = linearRegExp("^[a-z]{1,5000}$") as LinearRegExp;
    expect([linear.test("a".repeat(1_000_000)), linear.outsideLength, linear.visits, linear.scanned]).toEqual([
      false,
      true,
      0,
      0,
    ]);
    expect([linear.test("a".repeat(5001)), linear.outsideLength]).toEqual([false, true]);
    expect([linear.test("a".repeat(5000)), linear.outsideLength]).toEqual([true, false]);
  });

  test("a text shorter than the pattern's shortest match is refused unread too", () => {
    const linear = linearRegExp("^ab(?:c|de)$") as LinearRegExp;
    expect(
      ["", "a", "ab", "abc", "abde", "abdex"].map((text) => [text, linear.test(text), linear.outsideLength]),
    ).toEqual([
      ["", false, true],
      ["a", false, true],
      ["ab", false, true],
      ["abc", true, false],
      ["abde", true, false],
      ["abdex", false, true],
    ]);
    agree("^ab(?:c|de)$", ["", "a", "ab", "abc", "abd", "abde", "abdex", "😀😀😀"]);
  });

  test("bounds counted in characters, a surrogate pair one: V8's answers at and around them", () => {
    const patterns = [
      "^[a-z]{1,5000}$",
      "^ab[\\s\\S]{16,20}c$",
      "^(?:x|y)\\d{0,16}$",
      "^[😀a]{16,17}$",
      "^.{20}$",
      "^(?=a)[\\s\\S]{0,30}$",
      "^a{2}[b😀]{3,40}(?:c|d)$",
      "^[ab]{20}|c$",
    ];
    const texts: string[] = [];
    for (let k = 0; k <= 42; k++)
      texts.push(
        "a".repeat(k),
        "😀".repeat(k),
        `ab${"😀".repeat(k)}c`,
        `ab${"z".repeat(k)}c`,
        `x${"1".repeat(k)}`,
        `aa${"b😀".repeat(k >> 1)}d`,
        "b".repeat(k),
      );
    for (const pattern of patterns) agree(pattern, texts);
  });

  test("a lookahead's body is bounded where it is asked, (?=[0-9]{16,21}$) as a loop within 16 to 21 characters: V8's answers", () => {
    const patterns = [
      "^(?=[0-9]{16,21}$)\\d+$",
      "^(?![a-z]{16,20}$)\\w+$",
      "^a(?=[😀b]{16,17}$)[\\s\\S]*$",
      "^(?:(?=[0-9]{16}$)1|2)[0-9]*$",
      "^x(?=b{0,16}$)",
    ];
    const texts: string[] = [];
    for (let k = 0; k <= 24; k++)
      texts.push(
        "1".repeat(k),
        "a".repeat(k),
        `a${"😀".repeat(k)}`,
        `a${"b".repeat(k)}`,
        `2${"3".repeat(k)}`,
        `x${"b".repeat(k)}`,
      );
    for (const pattern of patterns) agree(pattern, texts);
    // The number keys' `(?=[0-9]{16,21}$)`, as earlier builds wrote them: 1e16 is a key, 17 ones are not.
    const previous = PREVIOUS_NUMERIC_KEY;
    agree(previous, ["1.5e-7", "123456", "1".repeat(17), `1${"0".repeat(16)}`, `1${"0".repeat(21)}`]);
    expect(["1.5e-7", "1".repeat(17), `1${"0".repeat(16)}`].map((t) => linearRegExp(previous).test(t))).toEqual([
      true,
      false,
      true,
    ]);
  });
});

test("the module's exports: the engine and its fallback, nothing for tests alone", () => {
  expect(Object.keys(require("../../runtime/linear-regexp")).sort()).toEqual([
    "BACKTRACKING_CHECK_MS",
    "BACKTRACKING_RUN_MS",
    "BoundedRegExp",
    "LinearRegExp",
    "PatternTooSlow",
    "backtrackingReason",
    "linearRegExp",
  ]);
});
