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
 * Not handled, so left to V8's own backtracking engine: backreferences (not regular),
 * lookbehind, and patterns whose NFA would exceed MAX_PROGRAM (large counted repetitions).
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
  /** LOOK: the lookahead's first instruction, its index, and whether it is negative. */
  start?: number;
  look?: number;
  negative?: boolean;
}

/** The largest program compiled; a pattern whose NFA is larger (`(...){1000}`) is left to V8. */
const MAX_PROGRAM = 20_000;

/** One code point matched by a pattern fragment, as V8 matches it (ASCII answers cached). */
class Atom {
  private readonly regExp: RegExp;
  private readonly ascii = new Int8Array(128).fill(-1);

  constructor(source: string) {
    this.regExp = new RegExp(`^(?:${source})$`, "u");
  }

  test(text: string, code: number, at: number, width: number): boolean {
    if (code < 128) {
      let known = this.ascii[code];
      if (known < 0) this.ascii[code] = known = this.regExp.test(text[at]) ? 1 : 0;
      return known === 1;
    }
    return this.regExp.test(text.slice(at, at + width));
  }
}

type Node =
  | { kind: "atom"; source: string }
  | { kind: "sequence"; items: Node[] }
  | { kind: "alternation"; options: Node[] }
  | { kind: "repeat"; node: Node; min: number; max: number }
  | { kind: "assert"; assertion: "^" | "$" | "b" | "B" }
  | { kind: "look"; negative: boolean; node: Node };

/** A construct the linear engine does not run: the pattern is left to V8. */
class Unsupported extends Error {}

/** A parser for the syntax of a `u`-flag pattern V8 has already accepted (so it only needs to find the parts). */
class Parser {
  private at = 0;
  constructor(private readonly source: string) {}

  parse(): Node {
    const node = this.alternation();
    if (this.at !== this.source.length) throw new Unsupported(`unexpected ${this.source[this.at]}`);
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
    while (this.at < this.source.length && this.peek() !== "|" && this.peek() !== ")") items.push(this.quantified(this.atom()));
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
        const bounds = /^\{(\d+)(,(\d*))?\}/.exec(this.source.slice(this.at));
        if (!bounds) return node;
        min = Number(bounds[1]);
        max = bounds[2] === undefined ? min : bounds[3] === "" ? Infinity : Number(bounds[3]);
        this.at += bounds[0].length - 1;
      } else return node;
      this.at++;
      if (this.peek() === "?") this.at++; // lazy: the same strings match
      if (node.kind === "assert" || node.kind === "look") continue; // a quantified assertion matches as the assertion (or as nothing)
      node = { kind: "repeat", node, min, max };
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
      if (next === "k" || (next !== undefined && next >= "1" && next <= "9")) throw new Unsupported("backreference");
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
      } else if (kind === "<" && (this.peek(2) === "=" || this.peek(2) === "!")) throw new Unsupported("lookbehind");
      else if (kind === "<") this.at = this.source.indexOf(">", this.at) + 1; // a named group
      else throw new Unsupported(`group (?${kind}`);
    }
    const node = this.alternation();
    if (this.peek() !== ")") throw new Unsupported("unclosed group");
    this.at++;
    return look ? { kind: "look", negative: look.negative, node } : node;
  }

  /** The end of the class starting here (`u` patterns have no nested classes). */
  private classEnd(): number {
    let at = this.at + 1;
    if (this.source[at] === "^") at++;
    while (at < this.source.length && this.source[at] !== "]") at = this.source[at] === "\\" ? this.escapeEnd(at) : at + 1;
    return at + 1;
  }

  /** The end of the escape starting at `at` (a backslash). */
  private escapeEnd(at: number): number {
    const rest = this.source.slice(at);
    const long = /^\\(?:u\{[0-9a-fA-F]+\}|u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|c[a-zA-Z]|[pP]\{[^}]*\})/.exec(rest);
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

/** Thompson's construction: the program of a pattern's tree, lookaheads as sub-programs. */
class Compiler {
  readonly program: Instruction[] = [];
  looks = 0;

  emit(instruction: Instruction): number {
    if (this.program.length >= MAX_PROGRAM) throw new Unsupported("too large");
    return this.program.push(instruction) - 1;
  }

  /** Compiles `node` so that it continues at the instruction `next` returns once patched. Returns its first instruction. */
  compile(node: Node, next: number): number {
    switch (node.kind) {
      case "atom":
        return this.emit({ op: CHAR, atom: new Atom(node.source), x: next, y: -1 });
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
        const match = this.emit({ op: MATCH, x: -1, y: -1 });
        const start = this.compile(node.node, match);
        return this.emit({ op: LOOK, negative: node.negative, start, look: this.looks++, x: next, y: -1 });
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

const isWordCode = (code: number) => (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95;

/** A compiled pattern, tested against one string at a time. */
class LinearRegExp {
  private readonly program: Instruction[];
  private readonly start: number;
  private readonly looks: number;
  /** Per instruction: the generation in which it was last added to a list (no instruction twice in one). */
  private readonly mark: Int32Array;
  /** The last generation number given out: each step of each run (lookaheads' too) gets a new one. */
  private generation = 0;
  /** Lookahead results for the string being tested: per lookahead, per position, 0 unknown, 1 true, 2 false. */
  private lookResults: (Uint8Array | undefined)[] = [];
  /** How many instruction visits the last test made: the work, for tests to bound. */
  visits = 0;

  constructor(
    readonly source: string,
    node: Node,
  ) {
    const compiler = new Compiler();
    const match = compiler.emit({ op: MATCH, x: -1, y: -1 });
    this.start = compiler.compile(node, match);
    this.program = compiler.program;
    this.looks = compiler.looks;
    this.mark = new Int32Array(this.program.length);
  }

  toString(): string {
    return `/${this.source}/u`;
  }

  test(text: string): boolean {
    this.lookResults = new Array(this.looks);
    this.visits = 0;
    if (this.generation > 0x3fffffff) {
      this.mark.fill(0);
      this.generation = 0;
    }
    return this.run(text, this.start, 0, true);
  }

  /** Whether the program from `start` matches at `from` (or, when `anywhere`, at any later position too). */
  private run(text: string, start: number, from: number, anywhere: boolean): boolean {
    const n = text.length;
    let current: number[] = [];
    if (this.add(current, start, text, from, ++this.generation)) return true;
    for (let at = from; at < n; ) {
      if (current.length === 0 && !anywhere) return false;
      const code = text.codePointAt(at)!;
      const width = code > 0xffff ? 2 : 1;
      const generation = ++this.generation;
      const next: number[] = [];
      for (const pc of current) {
        const instruction = this.program[pc];
        if (instruction.atom!.test(text, code, at, width) && this.add(next, instruction.x, text, at + width, generation)) return true;
      }
      at += width;
      // A search starts a new thread at every position (in the same generation: no thread twice).
      if (anywhere && this.add(next, start, text, at, generation)) return true;
      current = next;
    }
    return false;
  }

  /**
   * Adds the thread at `pc` and everything reachable from it without reading a character
   * (splits, assertions that hold at `at`, lookaheads that hold there); true as soon as MATCH is reached.
   * Threads kept in `list` are the CHAR instructions waiting for the next character.
   */
  private add(list: number[], pc: number, text: string, at: number, generation: number): boolean {
    const stack = [pc];
    while (stack.length) {
      const i = stack.pop()!;
      if (this.mark[i] === generation) continue;
      this.mark[i] = generation;
      this.visits++;
      const instruction = this.program[i];
      switch (instruction.op) {
        case MATCH:
          return true;
        case CHAR:
          list.push(i);
          break;
        case SPLIT:
          stack.push(instruction.y, instruction.x);
          break;
        case ASSERT:
          if (this.holds(instruction.assertion!, text, at)) stack.push(instruction.x);
          break;
        case LOOK:
          if (this.lookahead(instruction, text, at) !== instruction.negative) stack.push(instruction.x);
          break;
      }
    }
    return false;
  }

  private holds(assertion: "^" | "$" | "b" | "B", text: string, at: number): boolean {
    if (assertion === "^") return at === 0;
    if (assertion === "$") return at === text.length;
    const boundary = (at > 0 && isWordCode(text.charCodeAt(at - 1))) !== (at < text.length && isWordCode(text.charCodeAt(at)));
    return assertion === "b" ? boundary : !boundary;
  }

  /** Whether the lookahead's body matches at `at`: run once per position, with generations of its own. */
  private lookahead(instruction: Instruction, text: string, at: number): boolean {
    let results = this.lookResults[instruction.look!];
    if (!results) results = this.lookResults[instruction.look!] = new Uint8Array(text.length + 1);
    if (results[at] === 0) results[at] = this.run(text, instruction.start!, at, false) ? 1 : 2;
    return results[at] === 1;
  }
}

/**
 * A regular expression for a pattern, as Ajv's `code.regExp` asks (`u`: the flags, "u" or ""):
 * the linear engine where it handles the pattern, else V8's RegExp. Compiled once per pattern.
 */
export function linearRegExp(pattern: string, flags = "u"): { test(text: string): boolean } {
  const native = new RegExp(pattern, flags); // the pattern's syntax is V8's to judge, with its own message
  if (flags !== "u") return native;
  try {
    return new LinearRegExp(pattern, new Parser(pattern).parse());
  } catch (error) {
    if (error instanceof Unsupported) return native;
    throw error;
  }
}
linearRegExp.code = "typemcp linearRegExp";

/** For tests: the engine's own class, to read `visits`. */
export const LinearRegExpForTests = LinearRegExp;
