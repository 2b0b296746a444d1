/**
 * Regular expressions (JSON Schema `pattern`, `patternProperties`) tested in time linear in
 * the input: a string from a client cannot make validation backtrack for seconds, whatever
 * the pattern (`^(a+)+$` included). As pydantic does with Rust's regex crate by default.
 *
 * A Thompson NFA simulated a code point at a time (the "Pike VM" without captures: `test`
 * needs no groups), so the work is at most the pattern's size times the input's length. What
 * one character matches (a class, an escape, `.`, a literal) is asked of V8 itself with that
 * atom alone, so every atom means exactly what it means in a JavaScript `u`-flag RegExp. A
 * lookahead (typemcp's own template-literal patterns use bounded ones) is run as a sub-NFA at
 * the positions the NFA reaches it, once per position.
 *
 * Linear is not all: the NFA's thread sets are cached as a DFA (a table lookup a character), a
 * state that loops on itself has its run scanned by V8 as one class (Scanner), and a pattern
 * anchored at both ends is bounded by the length it can match (lengthBound), so typemcp's own
 * patterns run within a few times V8 (docs/performance.md).
 *
 * Not handled, so left to V8's own backtracking engine: backreferences (not regular),
 * lookbehind, and patterns whose NFA would exceed MAX_PROGRAM (large counted repetitions of
 * anything but a repetition: `(a+){1,5000}` is `a+`, see collapsed). The build warns at such a
 * pattern (TS93007, backtrackingReason), and V8 runs it within a time budget where `node:vm`
 * can stop it (BoundedRegExp): a value it cannot check in time is refused, never a hang.
 */

/** Instructions. */
const CHAR = 0;
const SPLIT = 1;
const ASSERT = 2;
const LOOK = 3;
const MATCH = 4;

interface Instruction {
  op: number;
  /** CHAR: the atom's matcher; ASSERT: the assertion. */
  atom?: Atom;
  assertion?: "^" | "$" | "b" | "B";
  /** SPLIT, CHAR, ASSERT, LOOK: the next instruction(s). */
  x: number;
  y: number;
  /** LOOK: the index of its body among the program's distinct lookahead bodies, and whether it is negative. */
  body?: number;
  negative?: boolean;
}

/** The largest program compiled; a pattern whose NFA is larger (`(...){1000}`) is left to V8. */
const MAX_PROGRAM = 20_000;

/** The most DFA states kept per pattern (each 1 KB of transitions): past that, the DFA starts over empty. */
const MAX_DFA_STATES = 1000;
/** The most transitions on characters past ASCII kept per DFA state. */
const MAX_WIDE = 256;
/**
 * DFA entries: a state's index, or one of these. A transition that depends on a lookahead the
 * character does not decide is a decision tree (TREE - its index), asked at run time.
 */
const UNKNOWN = -1;
const MATCHED = -2;
const DEAD = -3;
const FULL = -4;
const TREE = -5;

/** One code point matched by a pattern fragment, as V8 matches it (ASCII answers cached). */
class Atom {
  private readonly regExp: RegExp;
  private readonly ascii = new Int8Array(128).fill(-1);

  constructor(readonly source: string) {
    this.regExp = new RegExp(`^(?:${source})$`, "u");
  }

  test(code: number): boolean {
    if (code < 128) {
      let known = this.ascii[code];
      if (known < 0) this.ascii[code] = known = this.regExp.test(String.fromCharCode(code)) ? 1 : 0;
      return known === 1;
    }
    return this.regExp.test(String.fromCodePoint(code));
  }
}

type Node =
  | { kind: "atom"; source: string }
  | { kind: "sequence"; items: Node[] }
  | { kind: "alternation"; options: Node[] }
  | { kind: "repeat"; node: Node; min: number; max: number }
  | { kind: "assert"; assertion: "^" | "$" | "b" | "B" }
  | { kind: "look"; negative: boolean; node: Node; source: string };

/** A construct the linear engine does not run: the pattern is left to V8. The message says which. */
class Unsupported extends Error {}

/**
 * A repetition of an unbounded repetition, as the strings it matches (a test needs no
 * groups): `(x+){m,n}` is `x{m,}` (k ≥ m copies of x split into between m and n non-empty
 * runs) and `(x*){m,n}` is `x*`, for n ≥ 1. Written out, `(a+){1,5000}` is a 20,000-instruction
 * NFA whose threads all stay alive; collapsed, it is `a+`.
 */
function collapsed(repeat: { kind: "repeat"; node: Node; min: number; max: number }): Node {
  let inner = repeat.node;
  while (inner.kind === "sequence" && inner.items.length === 1) inner = inner.items[0];
  if (inner.kind !== "repeat" || inner.max !== Infinity || inner.min > 1 || repeat.max < 1) return repeat;
  return { kind: "repeat", node: inner.node, min: inner.min === 0 ? 0 : repeat.min, max: Infinity };
}

/**
 * A quantifier's bounds, and the escapes longer than two characters, read where the parser is
 * (sticky): not on a copy of the rest of the pattern at each one.
 */
const BOUNDS = /\{(\d+)(,(\d*))?\}/y;
const LONG_ESCAPE =
  /\\(?:u\{[0-9a-fA-F]+\}|u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|c[a-zA-Z]|[pP]\{[^}]*\})/y;

/** A parser for the syntax of a `u`-flag pattern V8 has already accepted (so it only needs to find the parts). */
class Parser {
  private at = 0;
  constructor(private readonly source: string) {}

  parse(): Node {
    const node = this.alternation();
    if (this.at !== this.source.length) throw new Unsupported(`an unexpected ${this.source[this.at]}`);
    return node;
  }

  private peek(offset = 0): string | undefined {
    return this.source[this.at + offset];
  }

  private alternation(): Node {
    const options = [this.sequence()];
    while (this.peek() === "|") {
      this.at++;
      options.push(this.sequence());
    }
    return options.length === 1 ? options[0] : { kind: "alternation", options };
  }

  private sequence(): Node {
    const items: Node[] = [];
    while (this.at < this.source.length && this.peek() !== "|" && this.peek() !== ")")
      items.push(this.quantified(this.atom()));
    return { kind: "sequence", items };
  }

  private quantified(node: Node): Node {
    for (;;) {
      const c = this.peek();
      let min: number, max: number;
      if (c === "*") [min, max] = [0, Infinity];
      else if (c === "+") [min, max] = [1, Infinity];
      else if (c === "?") [min, max] = [0, 1];
      else if (c === "{") {
        BOUNDS.lastIndex = this.at;
        const bounds = BOUNDS.exec(this.source);
        if (!bounds) return node;
        min = Number(bounds[1]);
        max = bounds[2] === undefined ? min : bounds[3] === "" ? Infinity : Number(bounds[3]);
        this.at += bounds[0].length - 1;
      } else return node;
      this.at++;
      if (this.peek() === "?") this.at++; // lazy: the same strings match
      if (node.kind === "assert" || node.kind === "look") continue; // a quantified assertion matches as the assertion (or as nothing)
      node = collapsed({ kind: "repeat", node, min, max });
    }
  }

  private atom(): Node {
    const c = this.source[this.at];
    if (c === "(") return this.group();
    if (c === "^" || c === "$") {
      this.at++;
      return { kind: "assert", assertion: c };
    }
    if (c === "[") return { kind: "atom", source: this.take(this.classEnd()) };
    if (c === "\\") {
      const next = this.peek(1);
      if (next === "b" || next === "B") {
        this.at += 2;
        return { kind: "assert", assertion: next };
      }
      if (next === "k" || (next !== undefined && next >= "1" && next <= "9")) throw new Unsupported("a backreference");
      return { kind: "atom", source: this.take(this.escapeEnd(this.at)) };
    }
    const code = this.source.codePointAt(this.at)!;
    return { kind: "atom", source: this.take(this.at + (code > 0xffff ? 2 : 1)) };
  }

  private group(): Node {
    this.at++; // (
    let look: { negative: boolean } | undefined;
    if (this.peek() === "?") {
      const kind = this.peek(1);
      if (kind === ":") this.at += 2;
      else if (kind === "=" || kind === "!") {
        look = { negative: kind === "!" };
        this.at += 2;
      } else if (kind === "<" && (this.peek(2) === "=" || this.peek(2) === "!")) throw new Unsupported("a lookbehind");
      else if (kind === "<")
        this.at = this.source.indexOf(">", this.at) + 1; // a named group
      else throw new Unsupported(`a group (?${kind}`);
    }
    const from = this.at;
    const node = this.alternation();
    if (this.peek() !== ")") throw new Unsupported("an unclosed group");
    const source = this.source.slice(from, this.at);
    this.at++;
    return look ? { kind: "look", negative: look.negative, node, source } : node;
  }

  /** The end of the class starting here (`u` patterns have no nested classes). */
  private classEnd(): number {
    let at = this.at + 1;
    if (this.source[at] === "^") at++;
    while (at < this.source.length && this.source[at] !== "]")
      at = this.source[at] === "\\" ? this.escapeEnd(at) : at + 1;
    return at + 1;
  }

  /** The end of the escape starting at `at` (a backslash). */
  private escapeEnd(at: number): number {
    LONG_ESCAPE.lastIndex = at;
    const long = LONG_ESCAPE.exec(this.source);
    if (long) return at + long[0].length;
    const code = this.source.codePointAt(at + 1);
    return at + 1 + (code !== undefined && code > 0xffff ? 2 : 1);
  }

  private take(end: number): string {
    const text = this.source.slice(this.at, end);
    this.at = end;
    return text;
  }
}

/** Thompson's construction: the program of a pattern's tree; each distinct lookahead body is a program of its own. */
class Compiler {
  readonly program: Instruction[] = [];
  /** The lookahead bodies, by their source: `(?!\.)` written ten times is one body, asked once per position. */
  readonly bodies = new Map<string, { index: number; node: Node }>();
  /** One Atom per distinct source: `[a-z]{1,5000}` compiles one RegExp, not 5,000 (87 ms). */
  private readonly atoms = new Map<string, Atom>();

  emit(instruction: Instruction): number {
    if (this.program.length >= MAX_PROGRAM)
      throw new Unsupported(
        `counted repetitions that, written out, take more than ${MAX_PROGRAM.toLocaleString("en-US")} instructions`,
      );
    return this.program.push(instruction) - 1;
  }

  /** Compiles `node` so that it continues at the instruction `next`. Returns its first instruction. */
  compile(node: Node, next: number): number {
    switch (node.kind) {
      case "atom": {
        let atom = this.atoms.get(node.source);
        if (!atom) this.atoms.set(node.source, (atom = new Atom(node.source)));
        return this.emit({ op: CHAR, atom, x: next, y: -1 });
      }
      case "assert":
        return this.emit({ op: ASSERT, assertion: node.assertion, x: next, y: -1 });
      case "sequence": {
        let start = next;
        for (let i = node.items.length - 1; i >= 0; i--) start = this.compile(node.items[i], start);
        return start;
      }
      case "alternation": {
        const starts = node.options.map((option) => this.compile(option, next));
        let start = starts[starts.length - 1];
        for (let i = starts.length - 2; i >= 0; i--) start = this.emit({ op: SPLIT, x: starts[i], y: start });
        return start;
      }
      case "look": {
        let body = this.bodies.get(node.source);
        if (!body) this.bodies.set(node.source, (body = { index: this.bodies.size, node: node.node }));
        return this.emit({ op: LOOK, negative: node.negative, body: body.index, x: next, y: -1 });
      }
      case "repeat": {
        let start = next;
        if (node.max === Infinity) {
          // x* : a split that loops back through the body.
          const loop = this.emit({ op: SPLIT, x: -1, y: next });
          this.program[loop].x = this.compile(node.node, loop);
          start = loop;
        } else {
          for (let i = node.min; i < node.max; i++) {
            const optional = this.emit({ op: SPLIT, x: -1, y: next });
            this.program[optional].x = this.compile(node.node, start);
            start = optional;
          }
        }
        for (let i = 0; i < node.min; i++) start = this.compile(node.node, start);
        return start;
      }
    }
  }
}

const isWordCode = (code: number) =>
  (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95;

/** Whether every match must end at the text's end (`…$`). */
function endAnchored(node: Node): boolean {
  if (node.kind === "assert") return node.assertion === "$";
  if (node.kind === "sequence") return node.items.length > 0 && endAnchored(node.items[node.items.length - 1]);
  if (node.kind === "alternation") return node.options.every(endAnchored);
  return false;
}

/**
 * The fewest and most characters (code points) a node can match. A node matches a fixed
 * number of characters where the two are equal.
 */
function span(node: Node): [shortest: number, longest: number] {
  switch (node.kind) {
    case "atom":
      return [1, 1];
    case "assert":
    case "look":
      return [0, 0];
    case "sequence": {
      let shortest = 0;
      let longest = 0;
      for (const item of node.items) {
        const [low, high] = span(item);
        shortest += low;
        longest += high;
      }
      return [shortest, longest];
    }
    case "alternation": {
      const spans = node.options.map(span);
      return [Math.min(...spans.map(([low]) => low)), Math.max(...spans.map(([, high]) => high))];
    }
    case "repeat": {
      const [low, high] = span(node.node);
      // 0 × Infinity is NaN: a repetition of what matches nothing matches nothing.
      return [low * node.min, high === 0 || node.max === 0 ? 0 : high * node.max];
    }
  }
}

/** A counted repetition of one character class up to this many or more is run as a loop and a length bound. */
const COUNTED = 16;

/**
 * A pattern anchored at both ends, with the fewest and most characters of a text it matches,
 * where one counted repetition of a single class has become a loop: in `^P C{m,n} S$` with `P`
 * and `S` of fixed lengths p and s, the run of C is the text less p + s characters, so the
 * pattern matches exactly what `^P C* S$` matches in texts of p + m + s to p + n + s
 * characters. Written out, `^[a-z]{1,5000}$` is a chain of 5,000 DFA states (past the 1,000
 * kept, the NFA steps each character: 240× V8 on 2,000 letters); as `^[a-z]*$` and 1 to 5,000
 * characters it is one state that loops, which V8 scans (Scanner). Other patterns anchored at
 * both ends get their shortest and longest matches as the bounds (`^ab(?:c|de)$`: 3 to 4
 * characters); the rest, none.
 */
function lengthBound(node: Node, startAnchored: boolean): { node: Node; shortest: number; longest: number } {
  if (!startAnchored || !endAnchored(node)) return { node, shortest: 0, longest: Infinity };
  const [shortest, longest] = span(node);
  if (node.kind !== "sequence") return { node, shortest, longest };
  const counted = node.items.filter(
    (item) => item.kind === "repeat" && item.node.kind === "atom" && item.max !== Infinity && item.max >= COUNTED,
  );
  if (counted.length !== 1) return { node, shortest, longest };
  for (const item of node.items) {
    const [low, high] = item === counted[0] ? [0, 0] : span(item);
    if (low !== high) return { node, shortest, longest };
  }
  const items = node.items.map((item) => (item === counted[0] ? { ...item, min: 0, max: Infinity } : item));
  return { node: { kind: "sequence", items }, shortest, longest };
}

/** Whether every match must start at the beginning (`^…`): then a search tries position 0 only. */
function anchored(node: Node): boolean {
  if (node.kind === "assert") return node.assertion === "^";
  if (node.kind === "sequence") return node.items.length > 0 && anchored(node.items[0]);
  if (node.kind === "alternation") return node.options.every(anchored);
  return false;
}

/**
 * How a closure treats a lookahead it reaches: listed with the threads, to be decided by the
 * next character (the DFA's states), or asked (a function giving the body's answer).
 */
type Looks = "pending" | ((body: number) => boolean);

/** A transition that depends on lookaheads the character does not decide: asked in order, then the state. */
interface Tree {
  body: number;
  yes: number;
  no: number;
}

/** The DFA of a program, built as it is needed (as RE2 does): thread lists met so far, and their transitions. */
class Dfa {
  readonly ids = new Map<string, number>();
  readonly lists: Int32Array[] = [];
  /** Per state, 256 entries: an ASCII character times whether it is the text's last. */
  table = new Int32Array(256 * 16).fill(UNKNOWN);
  /** Per state, the transitions on other characters met so far (at most MAX_WIDE). */
  readonly wide: Map<number, number>[] = [];
  readonly trees: Tree[] = [];
  /** The first state, by whether the run starts at the text's start and at its end. */
  readonly first = new Int32Array(4).fill(UNKNOWN);
  /** Per state that loops on itself: how V8 scans a run of its loop's characters (see Scanner). */
  readonly scanners: (Scanner | undefined)[] = [];
}

/**
 * A state's loop, scanned by V8: the characters on which the state goes back to itself, as a
 * sticky `[...]*` (a single class repeated: V8 runs it as a loop in machine code, it cannot
 * backtrack). The digits of `` `user_${number}` `` cost 4.5 ns each as table lookups and 0.3 ns
 * as V8's scan (bench/patterns.js): the table is what made such patterns 4–18× V8.
 */
interface Scanner {
  /** The ASCII characters of the loop, for a run too short to be worth a call to V8. */
  ascii: Uint8Array;
  regExp: RegExp;
  /** Whether it is the loop of the state's one thread (complete), not the loop the table knows so far. */
  whole: boolean;
}

/** A run shorter than this is read from the table: a call to V8 costs about as much as 16 lookups. */
const SCAN_AFTER = 16;

/** Work counted over one `test` (its lookaheads' runs included): for tests to bound and to tell which simulation ran. */
const work = { visits: 0, nfaSteps: 0, scanned: 0 };
/** Each `test` gets a number: a lookahead's remembered answer belongs to one text. */
let testNumber = 0;

/**
 * A compiled pattern, tested against one string at a time.
 *
 * A DFA built as it is needed runs it: each state is the set of NFA threads at a position, and
 * its successor on a character is computed once by the NFA, then looked up (a table for ASCII,
 * a map for the rest). A lookahead reached stays in the state, pending, until the next character
 * is read: its body's own DFA says from that character alone, most of the time, whether it holds
 * (`(?!\.)` on a digit does not match), and the transition is cached with it. Where the
 * character does not decide (`(?!::)` on a `:`), the transition is a decision tree that runs the
 * body there. typemcp's own patterns are bounded lookaheads of this kind, so they run as a DFA:
 * a table lookup per character. Programs with `\b`, or lookaheads inside lookaheads, are
 * simulated as an NFA, a step per character.
 */
export class LinearRegExp {
  /** The program, as flat arrays: the operation, the next instruction(s). */
  private readonly op: Uint8Array;
  private readonly x: Int32Array;
  private readonly y: Int32Array;
  private readonly instructions: Instruction[];
  private readonly start: number;
  /** The lookahead bodies, each an engine of its own (run anchored at the position asked). */
  private readonly bodies: LinearRegExp[];
  /** Whether a search starts threads at every position (see anchored): the pattern's own program only. */
  private readonly anywhere: boolean;
  /** Whether the program holds `^` (then a body's answer may depend on the position, not only the character). */
  private readonly hasStart: boolean;
  /** Per instruction: the generation in which it was last added to a list (no instruction twice in one). */
  private readonly mark: Int32Array;
  private generation = 0;
  private current: Int32Array;
  private next: Int32Array;
  private readonly stack: Int32Array;
  private dfa?: Dfa;
  private readonly dfaAble: boolean;
  /** A body's last answer (for the NFA, which asks it once per thread): the test, the position, the answer. */
  private readonly answered = { test: -1, at: -1, matches: false };
  /**
   * The fewest and most characters (code points) of a text the pattern matches, when it is
   * anchored at both ends (`^[a-z]{1,5000}$`: 1 and 5,000; see lengthBound); else 0 and
   * Infinity. A text outside is refused unread (its code points counted where its UTF-16 length does not tell).
   */
  private readonly shortest: number;
  private readonly longest: number;
  /**
   * Over the last test: how many instruction visits it made, how many characters the NFA
   * stepped (0: the DFA ran it all), and how many characters V8 scanned for the DFA (Scanner):
   * for tests to bound the work and tell which path ran.
   */
  visits = 0;
  nfaSteps = 0;
  scanned = 0;
  /** Whether the last test's text was refused by its length alone, unread (see lengthBound). */
  outsideLength = false;

  constructor(
    readonly source: string,
    parsed: Node,
    anywhere = !anchored(parsed),
  ) {
    // A lookahead's body runs anchored where it is asked: `(?=[0-9]{16,21}$)` is bounded too.
    const { node, shortest, longest } = lengthBound(parsed, !anywhere);
    this.shortest = shortest;
    this.longest = longest;
    const compiler = new Compiler();
    const match = compiler.emit({ op: MATCH, x: -1, y: -1 });
    this.start = compiler.compile(node, match);
    this.instructions = compiler.program;
    this.bodies = [...compiler.bodies.entries()].map(([text, body]) => new LinearRegExp(text, body.node, false));
    this.anywhere = anywhere;
    const size = this.instructions.length;
    this.op = new Uint8Array(size);
    this.x = new Int32Array(size);
    this.y = new Int32Array(size);
    for (let i = 0; i < size; i++) {
      const { op, x, y } = this.instructions[i];
      this.op[i] = op;
      this.x[i] = x;
      this.y[i] = y;
    }
    this.mark = new Int32Array(size);
    // A thread list holds each instruction once per generation; the stack, each edge once.
    this.current = new Int32Array(size);
    this.next = new Int32Array(size);
    this.stack = new Int32Array(2 * size + 2);
    this.hasStart = this.instructions.some((i) => i.assertion === "^");
    const boundary = this.instructions.some((i) => i.assertion === "b" || i.assertion === "B");
    this.dfaAble = !boundary && this.bodies.every((body) => body.bodies.length === 0 && body.dfaAble);
    if (this.dfaAble) this.dfa = new Dfa();
  }

  toString(): string {
    return `/${this.source}/u`;
  }

  test(text: string): boolean {
    testNumber++;
    work.visits = 0;
    work.nfaSteps = 0;
    work.scanned = 0;
    this.outsideLength = !this.within(text, 0);
    const result = !this.outsideLength && this.matchFrom(text, 0);
    this.visits = work.visits;
    this.nfaSteps = work.nfaSteps;
    this.scanned = work.scanned;
    return result;
  }

  /** Whether `text` has from `shortest` to `longest` characters (a surrogate pair is one). */
  private within(text: string, from: number): boolean {
    const n = text.length - from;
    // n UTF-16 units hold n/2 to n characters.
    if (n <= this.longest && (n + 1) >> 1 >= this.shortest) return true;
    if (n > 2 * this.longest || n < this.shortest) return false;
    let characters = n;
    for (let at = from; at < text.length - 1; at++) {
      const code = text.charCodeAt(at);
      if (code >= 0xd800 && code <= 0xdbff) {
        const low = text.charCodeAt(at + 1);
        if (low >= 0xdc00 && low <= 0xdfff) {
          characters--;
          at++;
        }
      }
    }
    return this.fits(characters);
  }

  /** Whether a match of this many characters is within the pattern's bounds. */
  private fits(characters: number): boolean {
    return characters >= this.shortest && characters <= this.longest;
  }

  /** Whether the program matches from `from` (or, searching, from any later position). */
  private matchFrom(text: string, from: number): boolean {
    if (this.generation > 0x3fffffff) {
      this.mark.fill(0);
      this.generation = 0;
    }
    if (this.dfa) {
      const result = this.runDfa(this.dfa, text, from);
      if (result !== FULL) return result === MATCHED;
      this.dfa = new Dfa(); // full: this text goes on the NFA, the next starts a DFA anew
    }
    return this.runNfa(text, from);
  }

  /** A body's answer at `at`, remembered for the position last asked. */
  private matchesAt(text: string, at: number): boolean {
    const answered = this.answered;
    if (answered.test === testNumber && answered.at === at) return answered.matches;
    const matches = this.within(text, at) && this.matchFrom(text, at);
    answered.test = testNumber;
    answered.at = at;
    answered.matches = matches;
    return matches;
  }

  /**
   * Adds the thread at `pc` and everything reachable from it without reading a character to
   * `list`, which holds `count` threads: the CHAR instructions waiting for the next character
   * (and, `looks` pending, the lookaheads to decide then). Returns the new count, or -1 as soon
   * as MATCH is reached.
   */
  private close(
    list: Int32Array,
    count: number,
    pc: number,
    text: string,
    at: number,
    atEnd: boolean,
    generation: number,
    looks: Looks,
  ): number {
    const { stack, mark, op } = this;
    let top = 0;
    stack[top++] = pc;
    while (top > 0) {
      const i = stack[--top];
      if (mark[i] === generation) continue;
      mark[i] = generation;
      work.visits++;
      switch (op[i]) {
        case MATCH:
          return -1;
        case CHAR:
          list[count++] = i;
          break;
        case SPLIT:
          stack[top++] = this.y[i];
          stack[top++] = this.x[i];
          break;
        case ASSERT: {
          const assertion = this.instructions[i].assertion!;
          const holds =
            assertion === "^"
              ? at === 0
              : assertion === "$"
                ? atEnd
                : ((at > 0 && isWordCode(text.charCodeAt(at - 1))) !==
                    (at < text.length && isWordCode(text.charCodeAt(at)))) ===
                  (assertion === "b");
          if (holds) stack[top++] = this.x[i];
          break;
        }
        case LOOK: {
          if (looks === "pending") list[count++] = i;
          else if (looks(this.instructions[i].body!) !== this.instructions[i].negative) stack[top++] = this.x[i];
          break;
        }
      }
    }
    return count;
  }

  // ---- The DFA ----

  /** The DFA state of a thread list (a new one if not met before), DEAD for none, or FULL. */
  private stateOf(dfa: Dfa, list: Int32Array, count: number, key: string): number {
    if (count === 0 && !this.anywhere) return DEAD;
    const threads = list.slice(0, count).sort();
    key += threads.join(",");
    let id = dfa.ids.get(key);
    if (id === undefined) {
      if (dfa.lists.length >= MAX_DFA_STATES) return FULL;
      id = dfa.lists.push(threads) - 1;
      dfa.ids.set(key, id);
      dfa.wide.push(new Map());
      if (dfa.table.length < (id + 1) * 256) {
        const table = new Int32Array(dfa.table.length * 2).fill(UNKNOWN);
        table.set(dfa.table);
        dfa.table = table;
      }
    }
    return id;
  }

  /** The first state from `from` (lookaheads pending), MATCHED, DEAD or FULL. */
  private firstState(dfa: Dfa, text: string, from: number): number {
    const slot = (from === 0 ? 2 : 0) | (from === text.length ? 1 : 0);
    let state = dfa.first[slot];
    if (state === UNKNOWN) {
      const count = this.close(
        this.current,
        0,
        this.start,
        text,
        from,
        from === text.length,
        ++this.generation,
        "pending",
      );
      // `^` holds in this state's closure: it is not the state of the same threads met later.
      state = count < 0 ? MATCHED : this.stateOf(dfa, this.current, count, from === 0 ? "^" : "");
      if (state !== FULL) dfa.first[slot] = state;
    }
    return state;
  }

  private runDfa(dfa: Dfa, text: string, from: number): number {
    const n = text.length;
    let state = this.firstState(dfa, text, from);
    if (state < 0) return state;
    let table = dfa.table;
    for (let at = from; at < n;) {
      // The common case, tight: ASCII characters but the last, along transitions known.
      for (const end = n - 1; at < end; at++) {
        const code = text.charCodeAt(at);
        if (code >= 128) break;
        const entry = table[(state << 8) | (code << 1)];
        if (entry < 0) break;
        if (entry === state && end - at > SCAN_AFTER) {
          // A loop: the run of its characters is scanned (the character at `at` is one).
          at = this.scan(dfa, state, text, at, end) - 1;
          table = dfa.table;
          continue;
        }
        state = entry;
      }
      let code = text.charCodeAt(at);
      let width = 1;
      if (code >= 0xd800 && code <= 0xdbff && at + 1 < n) {
        const low = text.charCodeAt(at + 1);
        if (low >= 0xdc00 && low <= 0xdfff) {
          code = ((code - 0xd800) << 10) + (low - 0xdc00) + 0x10000;
          width = 2;
        }
      }
      const last = at + width === n ? 1 : 0;
      let entry =
        code < 128 ? table[(state << 8) | (code << 1) | last] : (dfa.wide[state].get(code * 2 + last) ?? UNKNOWN);
      if (entry === MATCHED || entry === DEAD) return entry;
      if (entry < 0) {
        entry = this.slowTransition(dfa, state, entry, text, at, code, width, last);
        if (entry < 0) return entry;
        table = dfa.table;
      }
      state = entry;
      at += width;
    }
    return this.endMatches(dfa.lists[state], text) ? MATCHED : DEAD;
  }

  /**
   * Where the run of `state`'s loop characters starting at `at` (one of them) ends, at most at
   * `end` (the text's last character, whose transition may see `$`, goes through the table).
   */
  private scan(dfa: Dfa, state: number, text: string, at: number, end: number): number {
    let scanner = dfa.scanners[state];
    if (scanner === undefined) scanner = dfa.scanners[state] = this.scannerOf(dfa, state, text, at);
    const { ascii, regExp } = scanner;
    let to = at + 1;
    for (const short = at + SCAN_AFTER; to < short; to++) {
      const code = text.charCodeAt(to);
      if (code >= 128 || ascii[code] === 0) return to;
    }
    regExp.lastIndex = to;
    regExp.test(text);
    let scanned = regExp.lastIndex;
    if (scanned >= end) {
      scanned = end;
      // Not between the halves of a surrogate pair: the pair is the last character.
      const code = text.charCodeAt(end);
      if (code >= 0xdc00 && code <= 0xdfff && scanned > to) {
        const high = text.charCodeAt(end - 1);
        if (high >= 0xd800 && high <= 0xdbff) scanned--;
      }
    }
    work.scanned += scanned - to;
    return scanned;
  }

  /**
   * The scanner of a state that went back to itself on the character at `at`. A state of one
   * thread that loops (`[0-9]*$`, `[\s\S]*$`) loops on every character its atom matches: V8
   * scans the atom itself. Else the loop is what the table knows of it, the ASCII characters
   * that lead back to the state (the digits of a number, whose state also waits for `.`, `e`
   * and spaces); a loop character found later makes the scanner anew (slowTransition).
   */
  private scannerOf(dfa: Dfa, state: number, text: string, at: number): Scanner {
    const threads = dfa.lists[state];
    const ascii = new Uint8Array(128);
    if (threads.length === 1 && this.op[threads[0]] === CHAR && !this.anywhere) {
      const pc = threads[0];
      const generation = ++this.generation;
      const count = this.close(this.next, 0, this.x[pc], text, at + 1, false, generation, "pending");
      if (count === 1 && this.next[0] === pc) {
        const atom = this.instructions[pc].atom!;
        for (let code = 0; code < 128; code++) ascii[code] = atom.test(code) ? 1 : 0;
        return { ascii, regExp: new RegExp(`(?:${atom.source})*`, "uy"), whole: true };
      }
    }
    for (let code = 0; code < 128; code++) if (dfa.table[(state << 8) | (code << 1)] === state) ascii[code] = 1;
    const hex = (code: number) => `\\x${code.toString(16).padStart(2, "0")}`;
    let loop = "";
    for (let code = 0; code < 128; code++) {
      if (ascii[code] === 0 || (code > 0 && ascii[code - 1] === 1)) continue;
      let last = code;
      while (last < 127 && ascii[last + 1] === 1) last++;
      loop += last === code ? hex(code) : `${hex(code)}-${hex(last)}`;
    }
    return { ascii, regExp: new RegExp(`[${loop}]*`, "y"), whole: false };
  }

  /** At the text's end: whether a pending lookahead leads to MATCH (nothing is left to read). */
  private endMatches(list: Int32Array, text: string): boolean {
    const n = text.length;
    const generation = ++this.generation;
    const ask = (body: number) => this.bodies[body].matchesAt(text, n);
    for (const pc of list)
      if (this.op[pc] === LOOK && this.close(this.next, 0, pc, text, n, true, generation, ask) < 0) return true;
    return false;
  }

  /** A transition not in the table, or a decision tree: asked, computed and cached. */
  private slowTransition(
    dfa: Dfa,
    state: number,
    entry: number,
    text: string,
    at: number,
    code: number,
    width: number,
    last: number,
  ): number {
    // Walk the tree: the lookaheads the character does not decide, asked at this position.
    while (entry <= TREE) {
      const tree = dfa.trees[TREE - entry];
      entry = this.bodies[tree.body].matchesAt(text, at) ? tree.yes : tree.no;
    }
    if (entry !== UNKNOWN) return entry;
    const asked: [number, boolean][] = [];
    const decide = (body: number): boolean => {
      for (const [b, matches] of asked) if (b === body) return matches;
      const decided = this.bodies[body].decide(code, last === 1);
      const matches = decided === undefined ? this.bodies[body].matchesAt(text, at) : decided;
      if (decided === undefined) asked.push([body, matches]);
      return matches;
    };
    const successor = this.transition(dfa, dfa.lists[state], text, at, code, width, last === 1, decide);
    if (successor === FULL) return FULL;
    // Cache it: straight in the table, or at the end of its path in the tree.
    const slotEntry = code < 128 ? dfa.table[(state << 8) | (code << 1) | last] : dfa.wide[state].get(code * 2 + last);
    const stored = this.insert(dfa, slotEntry ?? UNKNOWN, asked, 0, successor);
    if (code < 128) {
      dfa.table[(state << 8) | (code << 1) | last] = stored;
      // One more character of the state's loop: its scanner is made anew with it.
      if (stored === state && last === 0 && !dfa.scanners[state]?.whole) dfa.scanners[state] = undefined;
    } else if (dfa.wide[state].size < MAX_WIDE) dfa.wide[state].set(code * 2 + last, stored);
    return successor;
  }

  private insert(dfa: Dfa, entry: number, asked: [number, boolean][], i: number, successor: number): number {
    if (i === asked.length) return successor;
    let tree: Tree;
    if (entry <= TREE) tree = dfa.trees[TREE - entry];
    else {
      tree = { body: asked[i][0], yes: UNKNOWN, no: UNKNOWN };
      entry = TREE - (dfa.trees.push(tree) - 1);
    }
    if (asked[i][1]) tree.yes = this.insert(dfa, tree.yes, asked, i + 1, successor);
    else tree.no = this.insert(dfa, tree.no, asked, i + 1, successor);
    return entry;
  }

  /**
   * The successor of a state's threads on the character at `at`: its pending lookaheads
   * decided there (by `looks`), the characters stepped, the closure after it with lookaheads
   * pending. MATCHED, DEAD, FULL or a state.
   */
  private transition(
    dfa: Dfa,
    threads: Int32Array,
    text: string,
    at: number,
    code: number,
    width: number,
    atEnd: boolean,
    looks: (body: number) => boolean,
  ): number {
    const current = this.current;
    let count = 0;
    const generation = ++this.generation;
    // A state's lookaheads hold or not at `at`: what follows a holding one is reached here too.
    for (const pc of threads) {
      count = this.close(current, count, pc, text, at, false, generation, looks);
      if (count < 0) return MATCHED;
    }
    const next = this.next;
    const stepped = ++this.generation;
    let nextCount = 0;
    for (let t = 0; t < count; t++) {
      const pc = current[t];
      if (this.instructions[pc].atom!.test(code)) {
        nextCount = this.close(next, nextCount, this.x[pc], text, at + width, atEnd, stepped, "pending");
        if (nextCount < 0) return MATCHED;
      }
    }
    if (this.anywhere) {
      nextCount = this.close(next, nextCount, this.start, text, at + width, atEnd, stepped, "pending");
      if (nextCount < 0) return MATCHED;
    }
    return this.stateOf(dfa, next, nextCount, "");
  }

  /**
   * A body's answer at a position, from the character there alone where it can be told
   * (true: it matches on reading it, or before; false: no thread survives it), else undefined.
   */
  private decide(code: number, atEnd: boolean): boolean | undefined {
    const dfa = this.dfa;
    if (!dfa || this.hasStart) return undefined;
    // The first state at a position inside the text (not its start: no `^` in the body).
    const slot = 0;
    let state = dfa.first[slot];
    if (state === UNKNOWN) {
      const count = this.close(this.current, 0, this.start, "", 1, false, ++this.generation, "pending");
      state = count < 0 ? MATCHED : this.stateOf(dfa, this.current, count, "");
      if (state === FULL) return undefined;
      dfa.first[slot] = state;
    }
    // A match here holds the character read at most (a bounded body ends at the text's end).
    if (state === MATCHED) return this.fits(0);
    if (state === DEAD) return false;
    const last = atEnd ? 1 : 0;
    let entry =
      code < 128 ? dfa.table[(state << 8) | (code << 1) | last] : (dfa.wide[state].get(code * 2 + last) ?? UNKNOWN);
    if (entry === UNKNOWN) {
      // A body has no lookaheads of its own: its transition depends on the character alone.
      entry = this.transition(dfa, dfa.lists[state], "", 1, code, code > 0xffff ? 2 : 1, atEnd, () => false);
      if (entry === FULL) return undefined;
      if (code < 128) dfa.table[(state << 8) | (code << 1) | last] = entry;
      else if (dfa.wide[state].size < MAX_WIDE) dfa.wide[state].set(code * 2 + last, entry);
    }
    return entry === MATCHED ? this.fits(1) : entry === DEAD ? false : undefined;
  }

  // ---- The NFA ----

  /** The NFA simulation from `from`: every thread stepped at every character, lookaheads asked where reached. */
  private runNfa(text: string, from: number): boolean {
    const n = text.length;
    let at = from;
    const ask = (body: number) => this.bodies[body].matchesAt(text, at);
    let current = this.current;
    let next = this.next;
    let count = this.close(current, 0, this.start, text, from, from === n, ++this.generation, ask);
    if (count < 0) return true;
    while (at < n) {
      if (count === 0 && !this.anywhere) return false;
      work.nfaSteps++;
      const code = text.codePointAt(at)!;
      const width = code > 0xffff ? 2 : 1;
      const generation = ++this.generation;
      let nextCount = 0;
      at += width;
      for (let t = 0; t < count; t++) {
        const pc = current[t];
        if (this.instructions[pc].atom!.test(code)) {
          nextCount = this.close(next, nextCount, this.x[pc], text, at, at === n, generation, ask);
          if (nextCount < 0) return true;
        }
      }
      // A search starts a new thread at every position (in the same generation: no thread twice).
      if (this.anywhere) {
        nextCount = this.close(next, nextCount, this.start, text, at, at === n, generation, ask);
        if (nextCount < 0) return true;
      }
      [current, next] = [next, current];
      count = nextCount;
    }
    return false;
  }
}

/**
 * The time V8 gets for one run of a pattern the linear engine does not run, and for all of one
 * check's (a call's arguments, or its result): a refused value costs at most this much.
 */
export const BACKTRACKING_RUN_MS = 100;
export const BACKTRACKING_CHECK_MS = 1000;

/** A value a backtracking pattern could not be checked against within its time: refused, with why. */
export class PatternTooSlow extends Error {
  constructor(
    readonly pattern: string,
    readonly reason: string,
  ) {
    super(`the pattern ${JSON.stringify(pattern)} runs on V8's backtracking engine (it holds ${reason})`);
  }
}

/** What V8's RegExp needs from `node:vm` to stop one run: a context, a script, a timeout. */
interface Vm {
  createContext(sandbox: object): object;
  Script: new (code: string) => { runInContext(context: object, options: { timeout: number }): unknown };
}

/** `node:vm`, loaded the first time a backtracking pattern runs; null where it is missing (Workers) or does not work. */
let vm: { context: { pattern?: RegExp; text?: string }; script: InstanceType<Vm["Script"]> } | null | undefined;

function loadVm(): typeof vm {
  if (vm !== undefined) return vm;
  try {
    const { createContext, Script } = require("node:vm") as Vm;
    const context = {};
    vm = { context: createContext(context) as typeof context, script: new Script("pattern.test(text)") };
  } catch {
    vm = null;
  }
  return vm;
}

/**
 * A pattern the linear engine does not run, on V8's RegExp, stopped after `timeout` ms where
 * `node:vm` can stop it (its watchdog interrupts a backtracking run: `^(a{1,100}){1,100}$` on
 * 40 `a` and `!` is stopped at 100 ms, where it would run for hours). Where `node:vm` is
 * missing (Cloudflare Workers), the platform's own CPU limit per request is the bound.
 */
export class BoundedRegExp {
  private readonly native: RegExp;

  constructor(
    readonly source: string,
    /** What the linear engine cannot run in it (backtrackingReason). */
    readonly reason: string,
  ) {
    this.native = new RegExp(source, "u");
  }

  /** Whether `text` matches; throws PatternTooSlow when the run takes more than `timeout` ms. */
  test(text: string, timeout = BACKTRACKING_RUN_MS): boolean {
    const bound = loadVm();
    if (!bound) return this.native.test(text);
    bound.context.pattern = this.native;
    bound.context.text = text;
    try {
      return bound.script.runInContext(bound.context, { timeout: Math.max(1, Math.ceil(timeout)) }) === true;
    } catch (error) {
      if ((error as { code?: string }).code === "ERR_SCRIPT_EXECUTION_TIMEOUT")
        throw new PatternTooSlow(this.source, this.reason);
      // A `node:vm` that loads but does not run scripts (a platform's stub): V8 as it is, from now on.
      vm = null;
      return this.native.test(text);
    } finally {
      bound.context.pattern = undefined;
      bound.context.text = undefined;
    }
  }

  toString(): string {
    return `/${this.source}/u`;
  }
}

/**
 * Why the linear engine does not run `pattern` ("a backreference", "a lookbehind", ...), or
 * undefined when it does. The build warns with it (TS93007); a SyntaxError for no pattern.
 */
export function backtrackingReason(pattern: string): string | undefined {
  new RegExp(pattern, "u"); // the pattern's syntax is V8's to judge, with its own message
  try {
    new LinearRegExp(pattern, new Parser(pattern).parse());
    return undefined;
  } catch (error) {
    if (error instanceof Unsupported) return error.message;
    throw error;
  }
}

/**
 * A schema's pattern as JSON Schema means it (a `u`-flag RegExp): the linear engine where it
 * handles the pattern, else V8's RegExp within a time bound (BoundedRegExp). Compiled once per pattern.
 */
export function linearRegExp(pattern: string): LinearRegExp | BoundedRegExp {
  new RegExp(pattern, "u"); // the pattern's syntax is V8's to judge, with its own message
  try {
    return new LinearRegExp(pattern, new Parser(pattern).parse());
  } catch (error) {
    if (error instanceof Unsupported) return new BoundedRegExp(pattern, error.message);
    throw error;
  }
}
