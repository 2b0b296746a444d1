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

/** The most DFA states kept per pattern (each 1 KB of transitions): past that, the NFA goes on alone. */
const MAX_DFA_STATES = 1000;
/** A DFA transition not computed yet, and one that reaches MATCH. */
const UNKNOWN = -2;
const MATCHED = -3;

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
      else if (kind === "<")
        this.at = this.source.indexOf(">", this.at) + 1; // a named group
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
    while (at < this.source.length && this.source[at] !== "]")
      at = this.source[at] === "\\" ? this.escapeEnd(at) : at + 1;
    return at + 1;
  }

  /** The end of the escape starting at `at` (a backslash). */
  private escapeEnd(at: number): number {
    const rest = this.source.slice(at);
    const long =
      /^\\(?:u\{[0-9a-fA-F]+\}|u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|c[a-zA-Z]|[pP]\{[^}]*\})/.exec(
        rest,
      );
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

const isWordCode = (code: number) =>
  (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95;

/** Whether every match must start at the beginning (`^…`): then a search tries position 0 only. */
function anchored(node: Node): boolean {
  if (node.kind === "assert") return node.assertion === "^";
  if (node.kind === "sequence") return node.items.length > 0 && anchored(node.items[0]);
  if (node.kind === "alternation") return node.options.every(anchored);
  return false;
}

/** Thread lists and a stack for one run (a lookahead's run, inside another, gets its own). */
interface Buffers {
  current: Int32Array;
  next: Int32Array;
  stack: Int32Array;
}

/** A compiled pattern, tested against one string at a time. */
class LinearRegExp {
  /** The program, as flat arrays: the operation, the next instruction(s), the atom of a CHAR. */
  private readonly op: Uint8Array;
  private readonly x: Int32Array;
  private readonly y: Int32Array;
  private readonly instructions: Instruction[];
  private readonly start: number;
  private readonly looks: number;
  /** Whether a search needs to start threads at positions after the first (see anchored). */
  private readonly unanchored: boolean;
  /** Per instruction: the generation in which it was last added to a list (no instruction twice in one). */
  private readonly mark: Int32Array;
  /** The last generation number given out: each step of each run (lookaheads' too) gets a new one. */
  private generation = 0;
  /** Lookahead results for the string being tested: per lookahead, per position, 0 unknown, 1 true, 2 false. */
  private lookResults: (Uint8Array | undefined)[] = [];
  /** Each depth of run's buffers (a lookahead's run is one deeper than the run that reaches it), kept between runs. */
  private readonly buffers: Buffers[] = [];
  private depth = 0;
  /** How many instruction visits the last test made: the work, for tests to bound. */
  visits = 0;

  constructor(
    readonly source: string,
    node: Node,
  ) {
    const compiler = new Compiler();
    const match = compiler.emit({ op: MATCH, x: -1, y: -1 });
    this.start = compiler.compile(node, match);
    this.instructions = compiler.program;
    this.looks = compiler.looks;
    this.unanchored = !anchored(node);
    const size = this.instructions.length;
    this.op = Uint8Array.from(this.instructions, (i) => i.op);
    this.x = Int32Array.from(this.instructions, (i) => i.x);
    this.y = Int32Array.from(this.instructions, (i) => i.y);
    this.mark = new Int32Array(size);
    const stepsDependOnPosition = this.instructions.some(
      (i) => i.op === LOOK || (i.op === ASSERT && (i.assertion === "b" || i.assertion === "B")),
    );
    if (!stepsDependOnPosition)
      this.dfa = { states: [], ids: new Map(), next: [], first: new Int32Array(2).fill(UNKNOWN) };
  }

  private newBuffers(): Buffers {
    const size = this.instructions.length;
    // A thread list holds each instruction once per generation; the stack, each edge once.
    return { current: new Int32Array(size), next: new Int32Array(size), stack: new Int32Array(2 * size + 2) };
  }

  toString(): string {
    return `/${this.source}/u`;
  }

  test(text: string): boolean {
    if (this.looks) this.lookResults = new Array(this.looks);
    this.visits = 0;
    if (this.generation > 0x3fffffff) {
      this.mark.fill(0);
      this.generation = 0;
    }
    return this.run(text, this.start, 0, this.unanchored);
  }

  /** Whether the program from `start` matches at `from` (or, when `anywhere`, at any later position too). */
  private run(text: string, start: number, from: number, anywhere: boolean): boolean {
    const buffers = (this.buffers[this.depth] ??= this.newBuffers());
    this.depth++;
    try {
      return this.simulate(text, start, from, anywhere, buffers);
    } finally {
      this.depth--;
    }
  }

  /**
   * The NFA's thread lists met so far, as the states of a DFA built as it is needed (as RE2
   * does): each state's successor on an ASCII character is computed once, by the NFA, then
   * looked up. Only for programs whose steps depend on nothing but the character and whether it
   * is the last (no lookahead, no \b); others are simulated step by step.
   */
  private readonly dfa?: { states: Int32Array[]; ids: Map<string, number>; next: Int32Array[]; first: Int32Array };

  /** The DFA state of a thread list (a new one if not met before), or -1 when the DFA is full. */
  private stateOf(list: Int32Array, count: number): number {
    const dfa = this.dfa!;
    const threads = list.slice(0, count).sort();
    const key = threads.join(",");
    let id = dfa.ids.get(key);
    if (id === undefined) {
      if (dfa.states.length >= MAX_DFA_STATES) return -1;
      id = dfa.states.push(threads) - 1;
      dfa.ids.set(key, id);
      dfa.next.push(new Int32Array(256).fill(UNKNOWN));
    }
    return id;
  }

  /** Searches with the DFA while it has room, going on with the NFA from where it stopped otherwise. */
  private simulateDfa(text: string, anywhere: boolean, buffers: Buffers): boolean {
    const n = text.length;
    const { current, next, stack } = buffers;
    const dfa = this.dfa!;
    // The first state depends only on whether the text is empty (`$` holds at 0).
    let state = dfa.first[n === 0 ? 1 : 0];
    if (state === UNKNOWN) {
      const count = this.add(current, 0, this.start, text, 0, ++this.generation, stack);
      state = count < 0 ? MATCHED : this.stateOf(current, count);
      if (state === -1) return this.simulateFrom(text, this.start, 0, anywhere, buffers, count);
      dfa.first[n === 0 ? 1 : 0] = state;
    }
    if (state === MATCHED) return true;
    for (let at = 0; at < n;) {
      const code = text.codePointAt(at)!;
      const width = code > 0xffff ? 2 : 1;
      const last = at + width === n ? 1 : 0;
      const slot = code < 128 ? code * 2 + last : -1;
      let successor = slot >= 0 ? this.dfa!.next[state][slot] : UNKNOWN;
      if (successor === UNKNOWN) {
        const threads = this.dfa!.states[state];
        const generation = ++this.generation;
        let nextCount = 0;
        for (const pc of threads) {
          if (this.instructions[pc].atom!.test(text, code, at, width)) {
            nextCount = this.add(next, nextCount, this.x[pc], text, at + width, generation, stack);
            if (nextCount < 0) break;
          }
        }
        if (nextCount >= 0 && anywhere)
          nextCount = this.add(next, nextCount, this.start, text, at + width, generation, stack);
        successor = nextCount < 0 ? MATCHED : this.stateOf(next, nextCount);
        if (slot >= 0 && successor !== -1) this.dfa!.next[state][slot] = successor;
        if (successor === -1) {
          // The DFA is full: the NFA goes on from the next position with these threads.
          current.set(next.subarray(0, nextCount));
          return this.simulateFrom(text, this.start, at + width, anywhere, buffers, nextCount);
        }
      }
      if (successor === MATCHED) return true;
      if (!anywhere && this.dfa!.states[successor].length === 0) return false;
      state = successor;
      at += width;
    }
    return false;
  }

  private simulate(text: string, start: number, from: number, anywhere: boolean, buffers: Buffers): boolean {
    if (this.dfa && this.depth === 1) return this.simulateDfa(text, anywhere, buffers);
    const count = this.add(buffers.current, 0, start, text, from, ++this.generation, buffers.stack);
    return count < 0 || this.simulateFrom(text, start, from, anywhere, buffers, count);
  }

  /** The NFA simulation from position `from`, where `buffers.current` holds `count` threads. */
  private simulateFrom(
    text: string,
    start: number,
    from: number,
    anywhere: boolean,
    buffers: Buffers,
    count: number,
  ): boolean {
    const n = text.length;
    let { current, next } = buffers;
    for (let at = from; at < n;) {
      if (count === 0 && !anywhere) return false;
      const code = text.codePointAt(at)!;
      const width = code > 0xffff ? 2 : 1;
      const generation = ++this.generation;
      let nextCount = 0;
      for (let t = 0; t < count; t++) {
        const pc = current[t];
        if (this.instructions[pc].atom!.test(text, code, at, width)) {
          nextCount = this.add(next, nextCount, this.x[pc], text, at + width, generation, buffers.stack);
          if (nextCount < 0) return true;
        }
      }
      at += width;
      // A search starts a new thread at every position (in the same generation: no thread twice).
      if (anywhere) {
        nextCount = this.add(next, nextCount, start, text, at, generation, buffers.stack);
        if (nextCount < 0) return true;
      }
      [current, next] = [next, current];
      count = nextCount;
    }
    return false;
  }

  /**
   * Adds the thread at `pc` and everything reachable from it without reading a character
   * (splits, assertions that hold at `at`, lookaheads that hold there) to `list`, which holds
   * `count` threads: the CHAR instructions waiting for the next character. Returns the new
   * count, or -1 as soon as MATCH is reached.
   */
  private add(
    list: Int32Array,
    count: number,
    pc: number,
    text: string,
    at: number,
    generation: number,
    stack: Int32Array,
  ): number {
    let top = 0;
    stack[top++] = pc;
    while (top > 0) {
      const i = stack[--top];
      if (this.mark[i] === generation) continue;
      this.mark[i] = generation;
      this.visits++;
      switch (this.op[i]) {
        case MATCH:
          return -1;
        case CHAR:
          list[count++] = i;
          break;
        case SPLIT:
          stack[top++] = this.y[i];
          stack[top++] = this.x[i];
          break;
        case ASSERT:
          if (this.holds(this.instructions[i].assertion!, text, at)) stack[top++] = this.x[i];
          break;
        case LOOK: {
          const instruction = this.instructions[i];
          if (this.lookahead(instruction, text, at) !== instruction.negative) stack[top++] = this.x[i];
          break;
        }
      }
    }
    return count;
  }

  private holds(assertion: "^" | "$" | "b" | "B", text: string, at: number): boolean {
    if (assertion === "^") return at === 0;
    if (assertion === "$") return at === text.length;
    const boundary =
      (at > 0 && isWordCode(text.charCodeAt(at - 1))) !== (at < text.length && isWordCode(text.charCodeAt(at)));
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
 * A schema's pattern as JSON Schema means it (a `u`-flag RegExp): the linear engine where it
 * handles the pattern, else V8's RegExp. Compiled once per pattern.
 */
export function linearRegExp(pattern: string): { test(text: string): boolean } {
  const native = new RegExp(pattern, "u"); // the pattern's syntax is V8's to judge, with its own message
  try {
    return new LinearRegExp(pattern, new Parser(pattern).parse());
  } catch (error) {
    if (error instanceof Unsupported) return native;
    throw error;
  }
}

/** For tests: the engine's own class, to read `visits`. */
export const LinearRegExpForTests = LinearRegExp;
