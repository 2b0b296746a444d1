import { BACKTRACKING_CHECK_MS, BACKTRACKING_RUN_MS, BoundedRegExp, PatternTooSlow } from "../linear-regexp";
import { setOwn } from "../../contract/own";
import { type Issue, WireError } from "./issues";
import { hasOwn } from "./values";

/**
 * One walk of a value through a schema's checks, and the two ways of walking it.
 *
 * A check walks a value at most twice: a first pass that lists nothing and stops at the first
 * issue (most values are valid), then, only for an invalid one, a listing pass that says where
 * and why. A union's branches are tried in passes of their own (`trial`), which list nothing
 * and leave the pass that tries them as it was. Nothing is thrown to end a walk: an issue, a
 * value JSON cannot carry or a cycle found deep down sets `stop`, which every loop reads.
 */

/** A compiled schema: the value as checked (the wire copy, when copying). What it finds goes into the pass. */
export type Check = (value: unknown, pass: Pass) => unknown;

/** What a check does, whichever way it walks: a value's keywords checked. */
export type KeywordCheck = (value: unknown, pass: Pass) => void;

/**
 * Cycles are looked for only below this depth (a cycle always gets there), which spares the
 * search on every result; a cycle found there is looked for again from the root, so that the
 * error names the shortest path.
 */
export const CHECKED_DEPTH = 32;

/**
 * What validating and making the wire copy do differently, one object each (VALIDATING,
 * COPYING): the checks (runtime/validation/compile.ts) are the same for both and never ask which
 * one walks; where the two differ, they call the pass's strategy. Each strategy walks an array's
 * items and an object's properties itself, so that neither walk reads which one it is.
 */
export interface Strategy {
  /** A whole value walked (Validator.validate, Validator.wireCopy). */
  root(check: Check, value: unknown, pass: Pass): unknown;
  /** The value a schema's keywords see; DROPPED for one that is left out, as JSON.stringify leaves undefined out. */
  prepare(value: unknown, pass: Pass): unknown;
  /** An integer of an `integer` schema beyond 2^53 - 1. */
  unsafeInteger(value: unknown, pass: Pass): void;
  /** A container's keywords run on an object or array (copying: with the cycle search). */
  container(value: object, keywords: Check, pass: Pass): unknown;
  /** An object or array the schema says nothing about: as it is (`out`), or a fresh copy of it as JSON carries it. */
  unconstrained(value: object, out: unknown, copy: Check, pass: Pass): unknown;
  /**
   * An object or array a `$ref` or a union's branch has walked (`out`, what it made of it), beside
   * which its schema may have container keywords of its own (the transformer writes none).
   */
  walked(value: object, out: unknown, keywords: Check | undefined, pass: Pass): unknown;
  /** An array's items, each under its schema: a prefix's, then the rest's. */
  items(items: unknown[], prefix: Check[], rest: Check, pass: Pass): unknown[];
  /** An object's properties, under its schema's object keywords. */
  properties(object: Record<string, unknown>, keywords: ObjectKeywords, pass: Pass): unknown;
}

/** An object schema's keywords, compiled (SchemaCompiler.objectKeywords), for the strategies' walks. */
export interface ObjectKeywords {
  /** The declared properties, in the schema's order: each key, its check, whether it is required, whether it is "__proto__". */
  readonly keys: readonly string[];
  readonly checks: readonly Check[];
  readonly isRequired: readonly boolean[];
  readonly protoKeys: readonly boolean[];
  readonly isDeclared: ReadonlySet<string>;
  /** `required`, in the schema's order (a validator's order for its issues). */
  readonly required: readonly string[];
  /** `additionalProperties: false` and no `patternProperties`: no undeclared key is valid, none is sent. */
  readonly closed: boolean;
  /** An undeclared key: checked where the schema admits it (and, given `into`, copied there), reported where it does not. */
  undeclared(object: Record<string, unknown>, key: string, into: Record<string, unknown> | undefined, pass: Pass): void;
}

/** What COPYING's prepare answers for undefined, and for a value it refuses: nothing goes out there. */
export const DROPPED: unique symbol = Symbol("dropped");

/**
 * Arguments: the value is checked as it is, and is its own result. It comes from JSON.parse
 * (undefined is no JSON value), and an undeclared key is refused where the schema closes the
 * object, never left behind.
 */
export const VALIDATING: Strategy = {
  root: (check, value, pass) => check(value, pass),
  prepare: (value) => value,
  // Beyond 2^53 - 1, JSON.parse reads a neighbour of the number written (9007199254740993 is
  // 9007199254740992), so the tool would get another number than the client sent.
  unsafeInteger: (value, pass) => {
    if (Number.isInteger(value) && !Number.isSafeInteger(value)) pass.report("safeInteger", value);
  },
  container: (value, keywords, pass) => keywords(value, pass),
  unconstrained: (_, out) => out,
  // The container keywords beside a reference or a branch are checked too.
  walked: (value, out, keywords, pass) => (keywords ? keywords(value, pass) : out),
  items: (items, prefix, rest, pass) => {
    const { listing } = pass;
    for (let i = 0; i < items.length; i++) {
      if (pass.stop) return items; // the first pass needs no more
      if (listing) pass.path.push(i);
      (prefix[i] ?? rest)(items[i], pass);
      if (listing) pass.path.pop();
    }
    return items;
  },
  properties: (object, keywords, pass) => {
    const { keys, checks } = keywords;
    // The common case, fast: a first pass over a closed object. One look at each declared key;
    // an undeclared key is there when the object has more keys than the declared ones it has.
    if (!pass.listing && keywords.closed) {
      let present = 0;
      for (let i = 0; i < keys.length; i++) {
        const item = declared(object, keywords, i, pass);
        if (item === undefined) continue;
        present++;
        checks[i](item, pass);
        if (pass.stop) return object;
      }
      if (Object.keys(object).length !== present) pass.noteIssue();
      return object;
    }
    for (const key of keywords.required) if (!hasOwn(object, key)) pass.report("required", object, key, key);
    // Undeclared keys before the declared ones, as validators order their issues.
    for (const key of Object.keys(object)) {
      if (pass.halted) break;
      if (!keywords.isDeclared.has(key)) keywords.undeclared(object, key, undefined, pass);
    }
    for (let i = 0; i < keys.length; i++) {
      if (pass.stop) return object; // the first pass needs no more
      const key = keys[i];
      if (hasOwn(object, key)) property(undefined, key, object[key], checks[i], pass);
    }
    return object;
  },
};

/**
 * Results: the copy that goes over the wire, holding exactly what the schema describes, as
 * JSON.stringify would write it: toJSON applied, undefined left out (null in an array, so null
 * is checked), undeclared keys of a closed schema left behind unseen (a class's private fields),
 * what JSON cannot carry refused.
 */
export const COPYING: Strategy = {
  root: (check, value, pass) => {
    const out = check(value, pass);
    // A result of undefined goes out as null (see Validator.wireCopy): null is checked.
    return out === undefined && !pass.halted ? check(null, pass) : out;
  },
  prepare: (input, pass) => {
    let value = input;
    if (value !== null && typeof value === "object" && typeof (value as { toJSON?: unknown }).toJSON === "function")
      value = (value as { toJSON(): unknown }).toJSON();
    switch (typeof value) {
      case "bigint":
        return pass.refuse("a bigint, which JSON cannot represent");
      case "function":
      case "symbol":
        // JSON.stringify would drop it without a word; a function where data was expected is a bug worth saying.
        return pass.refuse(`a ${typeof value}, which JSON cannot carry`);
      case "number":
        if (!Number.isFinite(value)) return pass.refuse(`${value} is not a JSON number`);
        return value;
      case "undefined":
        return DROPPED; // as JSON.stringify drops it
      default:
        return value;
    }
  },
  // A result's integer goes out as the number it is.
  unsafeInteger: () => {},
  container: (value, keywords, pass) => {
    const { ancestors } = pass;
    if ((pass.everyLevel || ancestors.length >= CHECKED_DEPTH) && ancestors.includes(value)) {
      if (!pass.everyLevel) return pass.startOverEveryLevel();
      pass.refuse("a cycle: the value contains itself");
      return undefined;
    }
    ancestors.push(value);
    const out = keywords(value, pass);
    ancestors.pop();
    return out;
  },
  unconstrained: (value, _, copy, pass) => COPYING.container(value, copy, pass),
  // The reference's or the branch's copy is the value's; container keywords beside them are not run.
  walked: (_, out) => out,
  items: (items, prefix, rest, pass) => {
    const out = new Array(items.length);
    const { listing } = pass;
    for (let i = 0; i < items.length; i++) {
      if (pass.stop) return out; // the first pass needs no more
      if (listing) pass.path.push(i);
      const check = prefix[i] ?? rest;
      let item = check(items[i], pass);
      // As JSON.stringify writes it: no holes in arrays. What goes out is null, so null is checked.
      if (item === undefined) item = check(null, pass);
      if (listing) pass.path.pop();
      out[i] = item;
    }
    return out;
  },
  properties: (object, keywords, pass) => {
    const { keys, checks } = keywords;
    const out: Record<string, unknown> = {};
    // The common case, fast: a first pass over a closed object, whose undeclared keys are left
    // behind unseen. One look at each declared key.
    if (!pass.listing && keywords.closed) {
      for (let i = 0; i < keys.length; i++) {
        const item = declared(object, keywords, i, pass);
        if (item === undefined) continue;
        const checked = checks[i](item, pass);
        if (pass.stop) return object;
        if (checked === undefined) continue;
        if (keywords.protoKeys[i]) setOwn(out, keys[i], checked);
        else out[keys[i]] = checked;
      }
      return out;
    }
    for (const key of keywords.required)
      if (!hasOwn(object, key) || object[key] === undefined) pass.report("required", object, key, key);
    // Undeclared keys the schema admits: checked before the declared ones, as validators order
    // their issues; sent after them.
    let undeclared: Record<string, unknown> | undefined;
    if (!keywords.closed)
      for (const key of Object.keys(object)) {
        if (pass.halted) break;
        if (!keywords.isDeclared.has(key)) keywords.undeclared(object, key, (undeclared ??= {}), pass);
      }
    for (let i = 0; i < keys.length; i++) {
      if (pass.stop) return out; // the first pass needs no more
      const key = keys[i];
      if (hasOwn(object, key)) property(out, key, object[key], checks[i], pass);
    }
    if (undeclared) for (const key of Object.keys(undeclared)) setOwn(out, key, undeclared[key]);
    return out;
  },
};

/** The fast path's look at a declared key: its value, or undefined for one that is missing (an issue noted when it is required). */
function declared(object: Record<string, unknown>, keywords: ObjectKeywords, i: number, pass: Pass): unknown {
  const key = keywords.keys[i];
  const item = hasOwn(object, key) ? object[key] : undefined;
  if (item === undefined && keywords.isRequired[i]) pass.noteIssue();
  return item;
}

/** One property checked under its schema; given `out`, its copy written there unless it is undefined. */
export function property(
  out: Record<string, unknown> | undefined,
  key: string,
  value: unknown,
  check: Check,
  pass: Pass,
  undeclared = false,
): void {
  if (!pass.listing) {
    const item = check(value, pass);
    if (out && item !== undefined) setOwn(out, key, item);
    return;
  }
  if (undeclared) pass.dataKeys.push(pass.path.length);
  pass.path.push(key);
  const item = check(value, pass);
  pass.path.pop();
  if (undeclared) pass.dataKeys.pop();
  if (out && item !== undefined) setOwn(out, key, item);
}

/**
 * A check's runs of the patterns the linear engine does not run (BoundedRegExp): their answers,
 * so that the second pass runs none again, and the time left. Each run is stopped at
 * BACKTRACKING_RUN_MS, and all of one check's at BACKTRACKING_CHECK_MS: a value arriving after
 * that is refused unrun. docs/rules.md, "Patterns the linear engine does not run".
 */
export interface Backtracking {
  left: number;
  answers: Map<BoundedRegExp, Map<string, boolean | PatternTooSlow>>;
}

/**
 * What the passes of one check share, each part made when first needed: most checks run no
 * pattern, and a check runs on every argument and result (a Map and an array made for each
 * were a twentieth of what typemcp allocates a call).
 */
export interface Shared {
  /**
   * Strings a pattern refused in the first pass, shared with the second: a refused string is
   * not run through the pattern again (it is the whole input's length, 8 MB at most).
   */
  misses?: { pattern: object; text: string }[];
  /** Backtracking patterns' runs, shared with the second pass (see matches). */
  backtracking?: Backtracking;
}

/** Where a pass that lists nothing is: it keeps no path (only a listing pass pushes onto it). */
const NOWHERE: (string | number)[] = [];

/** The state of one pass of a check. */
export class Pass {
  /** The pass found an issue (a pass that lists none notes only this). */
  failed = false;
  /** Nothing more to walk: an issue found by a pass that lists none, a value JSON cannot carry, a cycle to look for again. */
  stop = false;
  /** The first issues found (listing), at most `limit` of them. */
  issues: Issue[] = [];
  /** How many issues there are in all (listing), and how many of them were found inside a `$ref` (see Issue.viaRef). */
  total = 0;
  viaRefTotal = 0;
  /** Inside a `$ref` entered within the union branch being tried (see SchemaCompiler.union). */
  insideRef = false;
  /** The walk is over whatever the pass lists: a value JSON cannot carry, or a start over. */
  halted = false;
  /** Why the value cannot go over the wire, and where (the first found). */
  wireError: WireError | undefined = undefined;
  /** A cycle met below CHECKED_DEPTH: the pass is made again, looking at every level, so the error names the shortest path. */
  startOver = false;
  /** What the walk answered: the value as checked (the wire copy, when copying). */
  out: unknown = undefined;
  private tried: Pass | undefined = undefined;

  constructor(
    readonly strategy: Strategy,
    /** Record each issue with its path (the second pass), or only note that there is one (the first). */
    readonly listing: boolean,
    readonly limit: number,
    readonly shared: Shared,
    /** Look for cycles at every level (see CHECKED_DEPTH). */
    readonly everyLevel = false,
    /** Where the check is (kept while listing: a WireError in the first pass is found again by the second, with its path). */
    readonly path: (string | number)[] = listing ? [] : NOWHERE,
    /** The places in `path` of keys the schema does not declare (listing). */
    readonly dataKeys: number[] = listing ? [] : (NOWHERE as number[]),
    /** Objects from the root to here (copying): meeting one again is a cycle. */
    readonly ancestors: object[] = [],
  ) {}

  /** An issue: listed with its path, or, in a pass that lists none, noted, which ends the pass. */
  report(keyword: string, value: unknown, expected?: unknown, key?: string | number): void {
    if (!this.listing) {
      this.failed = this.stop = true;
      return;
    }
    this.total++;
    if (this.insideRef) this.viaRefTotal++;
    if (this.issues.length >= this.limit) return;
    const { path } = this;
    const issue: Issue = { path: key === undefined ? [...path] : [...path, key], keyword, expected, value };
    if (this.insideRef) issue.viaRef = true;
    const dataKeys = this.dataKeys.filter((at) => at < path.length);
    if (keyword === "additionalProperties") dataKeys.push(path.length);
    if (dataKeys.length) issue.dataKeys = dataKeys;
    this.issues.push(issue);
  }

  /** Noted without a report, by the first pass's shortcuts (a missing key, an undeclared one counted). */
  noteIssue(): void {
    this.failed = this.stop = true;
  }

  /** An issue a trial found, as it is. */
  record(issue: Issue): void {
    this.total++;
    if (issue.viaRef) this.viaRefTotal++;
    if (this.issues.length < this.limit) this.issues.push(issue);
  }

  /** The value cannot go over the wire: the pass ends, and says why and where. */
  refuse(reason: string): typeof DROPPED {
    this.wireError ??= new WireError(reason, [...this.path], [...this.dataKeys]);
    this.halted = this.stop = true;
    return DROPPED;
  }

  /** A cycle below CHECKED_DEPTH: the pass ends, to be made again looking at every level. */
  startOverEveryLevel(): undefined {
    this.startOver = this.halted = this.stop = true;
    return undefined;
  }

  /**
   * A pass in which to try a union's branches: it lists nothing and stops at the first issue, on
   * the same path, ancestors and patterns' answers; this pass is left as it was. One per pass,
   * begun `again` for each branch (a union inside a branch tries its own).
   */
  trial(): Pass {
    return (this.tried ??= this.branch(false));
  }

  /** A trial begun again, as new. */
  again(): this {
    this.failed = this.stop = this.halted = this.insideRef = this.startOver = false;
    this.wireError = undefined;
    return this;
  }

  /** A pass listing one branch's issues, for what a union reports when no branch fits. */
  listingTrial(): Pass {
    return this.branch(true);
  }

  /** A pass for one of a union's branches, sharing this one's strategy, path and limits. */
  private branch(listing: boolean): Pass {
    return new Pass(
      this.strategy,
      listing,
      this.limit,
      this.shared,
      this.everyLevel,
      // A pass that lists nothing keeps no path: a listing branch of one starts its own.
      listing && !this.listing ? [] : this.path,
      listing && !this.listing ? [] : this.dataKeys,
      this.ancestors,
    );
  }

  /** What ended a trial that ends this pass too (a value JSON cannot carry, a start over): taken over; whether there was one. */
  endedBy(trial: Pass): boolean {
    if (!trial.halted) return false;
    this.wireError ??= trial.wireError;
    this.startOver ||= trial.startOver;
    this.halted = this.stop = true;
    return true;
  }
}

/** Whether `text` matches `pattern`, or, for a backtracking pattern, PatternTooSlow when it could not tell in time. */
export function matches(pattern: { test(text: string): boolean }, text: string, pass: Pass): boolean | PatternTooSlow {
  if (!(pattern instanceof BoundedRegExp)) return pattern.test(text);
  const backtracking = (pass.shared.backtracking ??= { left: BACKTRACKING_CHECK_MS, answers: new Map() });
  const { answers } = backtracking;
  let known = answers.get(pattern);
  if (!known) answers.set(pattern, (known = new Map()));
  let answer = known.get(text);
  if (answer !== undefined) return answer;
  if (backtracking.left <= 0) answer = new PatternTooSlow(pattern.source, pattern.reason);
  else {
    const started = performance.now();
    try {
      answer = pattern.test(text, Math.min(BACKTRACKING_RUN_MS, backtracking.left));
    } catch (error) {
      if (!(error instanceof PatternTooSlow)) throw error;
      answer = error;
    }
    backtracking.left -= performance.now() - started;
  }
  known.set(text, answer);
  return answer;
}
