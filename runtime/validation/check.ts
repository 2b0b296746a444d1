import { fullFormats } from "ajv-formats/dist/formats";
import type { JsonSchema } from "../../contract/contract";
import { KEYWORD_ROWS, keywordRow } from "../../contract/keywords";
import { setOwn } from "../../contract/own";
import {
  BACKTRACKING_CHECK_MS,
  BACKTRACKING_RUN_MS,
  BoundedRegExp,
  linearRegExp,
  PatternTooSlow,
} from "../linear-regexp";

/**
 * A schema turned into a function, once, from closures (no generated code): it checks a value
 * against the schema and, for results, makes the copy that goes over the wire. The same
 * function serves a tool's first call and its millionth; nothing is compiled at run time, so a
 * server runs where generating code is forbidden.
 *
 * A check runs twice only when the value is invalid: a first pass that records nothing (most
 * values are valid, and it allocates nothing but the copy), then a pass that says where and
 * why, keyword by keyword in the order JSON Schema validators evaluate them (the type, then
 * `const`, `enum`, `anyOf`, then the keywords of the value's own type), so that the issues
 * are the ones a validator reports. That pass keeps the first LISTED_ISSUES issues and counts
 * the rest: a value with a million wrong items costs one walk, not a million issue objects.
 * Patterns run on a linear-time engine (linear-regexp.ts): no string makes a check backtrack.
 */

/** A place in a value: property names and array indices from the root. */
export type Path = readonly (string | number)[];

/** One reason a value is invalid: where, and which keyword said so (with what it needs to say why). */
export interface Issue {
  path: Path;
  keyword: string;
  /** The keyword's value in the schema (the limit, the pattern, the allowed values...). */
  expected?: unknown;
  /** The value found there. */
  value: unknown;
  /** Found inside a `$ref` within a union's branch: kept when no branch fits (see CheckBuilder.union). */
  viaRef?: boolean;
  /** The places in `path` whose key the value chose (a record's key, an undeclared one), not the schema. */
  dataKeys?: readonly number[];
}

/** A value that cannot go over the wire as JSON, and where in the value it is. */
export class WireError extends Error {
  constructor(
    readonly reason: string,
    readonly path: Path = [],
    /** As Issue.dataKeys. */
    readonly dataKeys: readonly number[] = [],
  ) {
    super(reason);
  }
  /** `result.items[2].owner: a bigint, which JSON cannot represent`, the path starting at `root`. */
  describe(root: string): string {
    const path = this.path.map((key) => (typeof key === "number" ? `[${key}]` : `.${key}`)).join("");
    return `${root}${path}`.replace(/^\./, "") + `: ${this.reason}`;
  }
}

/** The state of one pass of a check. */
interface Run {
  /** Results: apply toJSON, drop undefined, leave undeclared keys behind, refuse what JSON cannot carry. */
  readonly project: boolean;
  /** Record each issue with its path (the second pass), or only note that there is one (the first). */
  tracking: boolean;
  /** The first pass found an issue. */
  failed: boolean;
  /** The first issues found (tracking), at most `limit` of them. */
  issues: Issue[];
  limit: number;
  /** How many issues there are in all (tracking), and how many of them were found inside a `$ref` (see Issue.viaRef). */
  total: number;
  viaRefTotal: number;
  /** Where the check is (kept while tracking: a WireError in the first pass is thrown again by the second, with its path). */
  path: (string | number)[];
  /** The places in `path` of keys the schema does not declare (tracking). */
  dataKeys: number[];
  /** Objects from the root to here (projecting): meeting one again is a cycle. */
  ancestors: object[];
  /** Look for cycles at every level (see CHECKED_DEPTH). */
  everyLevel: boolean;
  /** Inside a `$ref` entered within the union branch being tried (see CheckBuilder.union). */
  insideRef: boolean;
  /**
   * Strings a pattern refused in the first pass, shared with the second: a refused string is
   * not run through the pattern again (it is the whole input's length, 8 MB at most).
   */
  misses: { pattern: object; text: string }[];
  /** Backtracking patterns' runs, shared with the second pass (see matches). */
  backtracking: Backtracking;
}

/**
 * A check's runs of the patterns the linear engine does not run (BoundedRegExp): their answers,
 * so that the second pass runs none again, and the time left. Each run is stopped at
 * BACKTRACKING_RUN_MS, and all of one check's at BACKTRACKING_CHECK_MS: a value arriving after
 * that is refused unrun. docs/rules.md, "Patterns".
 */
interface Backtracking {
  left: number;
  answers: Map<BoundedRegExp, Map<string, boolean | PatternTooSlow>>;
}

/** Whether `text` matches `pattern`, or, for a backtracking pattern, PatternTooSlow when it could not tell in time. */
function matches(pattern: { test(text: string): boolean }, text: string, run: Run): boolean | PatternTooSlow {
  if (!(pattern instanceof BoundedRegExp)) return pattern.test(text);
  const { answers } = run.backtracking;
  let known = answers.get(pattern);
  if (!known) answers.set(pattern, (known = new Map()));
  let answer = known.get(text);
  if (answer !== undefined) return answer;
  if (run.backtracking.left <= 0) answer = new PatternTooSlow(pattern.source, pattern.reason);
  else {
    const started = performance.now();
    try {
      answer = pattern.test(text, Math.min(BACKTRACKING_RUN_MS, run.backtracking.left));
    } catch (error) {
      if (!(error instanceof PatternTooSlow)) throw error;
      answer = error;
    }
    run.backtracking.left -= performance.now() - started;
  }
  known.set(text, answer);
  return answer;
}

/** A compiled schema: the checked value (the wire copy when projecting). Issues go into the run. */
type Check = (value: unknown, run: Run) => unknown;

/**
 * Cycles are looked for only below this depth (a cycle always gets there), which spares the
 * search on every result; a cycle found there is looked for again from the root, so that the
 * error names the shortest path.
 */
const CHECKED_DEPTH = 32;
const START_OVER = Symbol("start over, checking every level for cycles");

function report(run: Run, keyword: string, value: unknown, expected?: unknown, key?: string | number): void {
  if (!run.tracking) {
    run.failed = true;
    return;
  }
  run.total++;
  if (run.insideRef) run.viaRefTotal++;
  if (run.issues.length >= run.limit) return;
  const issue: Issue = { path: key === undefined ? [...run.path] : [...run.path, key], keyword, expected, value };
  if (run.insideRef) issue.viaRef = true;
  const dataKeys = run.dataKeys.filter((at) => at < run.path.length);
  if (keyword === "additionalProperties") dataKeys.push(run.path.length);
  if (dataKeys.length) issue.dataKeys = dataKeys;
  run.issues.push(issue);
}

function fail(run: Run, reason: string): never {
  throw new WireError(reason, [...run.path], [...run.dataKeys]);
}

const hasOwn = (object: object, key: string) => Object.prototype.hasOwnProperty.call(object, key);

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value);

function jsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

/** Whether a value is of a JSON Schema type. Numbers must be finite (JSON has no other). */
function typeTest(type: string): (value: unknown) => boolean {
  switch (type) {
    case "number":
      return (value) => typeof value === "number" && Number.isFinite(value);
    case "integer":
      return (value) => Number.isInteger(value);
    case "string":
      return (value) => typeof value === "string";
    case "boolean":
      return (value) => typeof value === "boolean";
    case "null":
      return (value) => value === null;
    case "array":
      return Array.isArray;
    case "object":
      return isObject;
    default:
      throw new Error(`typemcp: the schema has the type ${JSON.stringify(type)}, which JSON Schema does not define`);
  }
}

/** A string's length in code points, as JSON Schema counts it (a surrogate pair is one). */
function codePoints(text: string): number {
  let length = text.length;
  for (let at = 0; at < text.length - 1; at++) {
    const unit = text.charCodeAt(at);
    if (unit >= 0xd800 && unit <= 0xdbff && (text.charCodeAt(at + 1) & 0xfc00) === 0xdc00) {
      length--;
      at++;
    }
  }
  return length;
}

/** Deep equality of JSON values (uniqueItems, const, enum). */
function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== "object" || typeof b !== "object") return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a))
    return a.length === (b as unknown[]).length && a.every((item, i) => equal(item, (b as unknown[])[i]));
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every(
    (key) => hasOwn(b, key) && equal((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]),
  );
}

type Format =
  RegExp | ((text: string) => boolean) | boolean | { type?: string; validate: RegExp | ((value: never) => boolean) };

/** Whether a value passes a format: formats of one JSON type say nothing about values of another. */
function passesFormat(format: Format, value: unknown): boolean {
  if (typeof format === "boolean") return format;
  if (format instanceof RegExp) return typeof value !== "string" || format.test(value);
  if (typeof format === "function") return typeof value !== "string" || format(value);
  if (typeof value !== (format.type ?? "string")) return true;
  return format.validate instanceof RegExp
    ? format.validate.test(value as string)
    : (format.validate as (v: unknown) => boolean)(value);
}

/** Keywords that say nothing about which values are valid. */
export const ANNOTATIONS = new Set(KEYWORD_ROWS.filter(([, row]) => row.annotation).map(([name]) => name));

/** The bounds on values of a JSON type, in the table's order: each keyword, and whether a measure is outside its limit. */
const boundsOn = (applies: string) =>
  KEYWORD_ROWS.filter(([, row]) => row.applies === applies && row.outside).map(
    ([name, row]) => [name, row.outside!] as const,
  );
const NUMBER_BOUNDS = boundsOn("number");
const STRING_BOUNDS = boundsOn("string");
const ARRAY_BOUNDS = boundsOn("array");

/**
 * Builds the checks of one schema document (a closure per keyword): `$ref`s resolve against its
 * root, each target built once. Not a compiler of code: nothing is generated (see checkerOf).
 */
class CheckBuilder {
  private readonly refs = new Map<string, Check>();
  private readonly refTypes = new Map<string, Set<string> | undefined>();

  constructor(private readonly root: JsonSchema) {}

  compile(schema: JsonSchema | boolean): Check {
    if (schema === true) return this.anything;
    if (schema === false) return (value, run) => (report(run, "false", value), value);
    for (const keyword of Object.keys(schema)) {
      if (!keywordRow(keyword))
        throw new Error(
          `typemcp: the schema uses the keyword ${JSON.stringify(keyword)}, which typemcp does not check`,
        );
    }
    const general = this.general(schema);
    // A scalar type and nothing else that checks (most properties): a value of the type is
    // valid as it is, and is its own wire copy; anything else takes the general path.
    const keywords = Object.keys(schema).filter((keyword) => !ANNOTATIONS.has(keyword));
    if (
      keywords.length === 1 &&
      keywords[0] === "type" &&
      ["string", "number", "integer", "boolean", "null"].includes(schema.type as string)
    ) {
      // An integer beyond the safe range takes the general path: refused among arguments.
      const test = schema.type === "integer" ? Number.isSafeInteger : typeTest(schema.type as string);
      return (value, run) => (test(value) ? value : general(value, run));
    }
    return general;
  }

  /** Every keyword of a schema, in the order validators evaluate them. */
  private general(schema: JsonSchema): Check {
    const ref = typeof schema.$ref === "string" ? this.ref(schema.$ref) : undefined;
    const own = this.ownKeywords(schema);
    const union = Array.isArray(schema.anyOf) ? this.union(schema.anyOf as JsonSchema[]) : undefined;
    const number = this.numberKeywords(schema);
    const string = this.stringKeywords(schema);
    const array = this.arrayKeywords(schema);
    const object = this.objectKeywords(schema);
    return (input, run) => {
      let value = input;
      if (run.project) {
        if (value !== null && typeof value === "object" && typeof (value as { toJSON?: unknown }).toJSON === "function")
          value = (value as { toJSON(): unknown }).toJSON();
        switch (typeof value) {
          case "bigint":
            return fail(run, "a bigint, which JSON cannot represent");
          case "function":
          case "symbol":
            // JSON.stringify would drop it without a word; a function where data was expected is a bug worth saying.
            return fail(run, `a ${typeof value}, which JSON cannot carry`);
          case "number":
            if (!Number.isFinite(value)) return fail(run, `${value} is not a JSON number`);
            break;
          case "undefined":
            return undefined; // dropped, as JSON.stringify drops it
        }
      }
      // A reference, or a union's branch, makes the wire copy; container keywords beside them
      // (the transformer writes none) then only check.
      let out = value;
      let copied = false;
      if (ref) {
        out = ref(value, run);
        copied = true;
      }
      if (own) own(value, run);
      if (union) {
        out = union(value, run);
        copied = true;
      }
      switch (typeof value) {
        case "number":
          if (number) number(value, run);
          return out;
        case "string":
          if (string) string(value, run);
          return out;
        case "object": {
          if (value === null || (copied && run.project)) return out;
          const container = Array.isArray(value) ? array : object;
          if (container) return this.within(value, container, run);
          return run.project ? this.copy(value, run) : out;
        }
        default:
          return out;
      }
    };
  }

  /** `type`, `const` and `enum`: they apply to a value of any type. */
  private ownKeywords(schema: JsonSchema): ((value: unknown, run: Run) => void) | undefined {
    const checks: ((value: unknown, run: Run) => void)[] = [];
    if (schema.type !== undefined) {
      const type = schema.type as string;
      const test = typeTest(type);
      checks.push((value, run) => test(value) || report(run, "type", value, type));
      // Arguments: beyond 2^53 - 1, JSON.parse reads a neighbour of the number written
      // (9007199254740993 is 9007199254740992), so the tool would get another number than the
      // client sent. A result's integer goes out as the number it is.
      if (type === "integer")
        checks.push(
          (value, run) =>
            run.project || !Number.isInteger(value) || Number.isSafeInteger(value) || report(run, "safeInteger", value),
        );
    }
    if ("const" in schema) {
      const allowed = schema.const;
      checks.push((value, run) => equal(value, allowed) || report(run, "const", value, allowed));
    }
    if (Array.isArray(schema.enum)) {
      const allowed = schema.enum;
      checks.push(
        (value, run) => allowed.some((option) => equal(value, option)) || report(run, "enum", value, allowed),
      );
    }
    return sequence(checks);
  }

  /** Runs a container's check with the object on the path of ancestors (cycles are looked for). */
  private within(value: object, check: Check, run: Run): unknown {
    if (!run.project) return check(value, run);
    if ((run.everyLevel || run.ancestors.length >= CHECKED_DEPTH) && run.ancestors.includes(value)) {
      if (!run.everyLevel) throw START_OVER;
      fail(run, "a cycle: the value contains itself");
    }
    run.ancestors.push(value);
    const out = check(value, run);
    run.ancestors.pop();
    return out;
  }

  /** A value the schema says nothing about, as JSON carries it (projecting: a fresh copy). */
  private copy(value: object, run: Run): unknown {
    return this.within(value, Array.isArray(value) ? this.anyArray : this.anyObject, run);
  }

  private readonly anything: Check = this.compile({});
  private readonly anyArray: Check = (value, run) => this.items(value as unknown[], [], this.anything, run);
  private readonly anyObject: Check = (value, run) => {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value as object))
      this.property(out, key, (value as Record<string, unknown>)[key], this.anything, run, true);
    return out;
  };

  private ref(ref: string): Check {
    let check = this.refs.get(ref);
    if (!check) {
      let compiled: Check | undefined;
      // Compiled when first run: a schema may refer to itself.
      check = (value, run) => {
        const outside = run.insideRef;
        run.insideRef = true;
        const out = (compiled ??= this.compile(this.target(ref)))(value, run);
        run.insideRef = outside;
        return out;
      };
      this.refs.set(ref, check);
    }
    return check;
  }

  /** What a `$ref` points at: the root, or one of its `$defs` (the only references typemcp writes). */
  private target(ref: string): JsonSchema {
    if (ref === "#") return this.root;
    const defs = this.root.$defs as Record<string, JsonSchema> | undefined;
    const name = ref.startsWith("#/$defs/") ? ref.slice(8).replace(/~1/g, "/").replace(/~0/g, "~") : undefined;
    if (name === undefined || !defs || !hasOwn(defs, name))
      throw new Error(`typemcp: the schema refers to ${ref}, which it does not define`);
    return defs[name];
  }

  /** The JSON types a schema admits at most (undefined: any), looking through references: a union skips the branches a value cannot fit. */
  private typesOf(schema: JsonSchema, seen = new Set<string>()): Set<string> | undefined {
    if (typeof schema.$ref === "string") {
      const ref = schema.$ref;
      if (seen.has(ref)) return undefined;
      if (!this.refTypes.has(ref)) this.refTypes.set(ref, this.typesOf(this.target(ref), new Set([...seen, ref])));
      return this.refTypes.get(ref);
    }
    if (typeof schema.type === "string") return new Set(schema.type === "integer" ? ["number"] : [schema.type]);
    if ("const" in schema) return new Set([jsonType(schema.const)]);
    if (Array.isArray(schema.enum)) return new Set(schema.enum.map(jsonType));
    if (Array.isArray(schema.anyOf)) {
      const types = new Set<string>();
      for (const branch of schema.anyOf as JsonSchema[]) {
        const branchTypes = this.typesOf(branch, seen);
        if (!branchTypes) return undefined;
        for (const type of branchTypes) types.add(type);
      }
      return types;
    }
    return undefined;
  }

  /**
   * `anyOf`: the first branch the value fits (among those of its JSON type); projecting, that
   * branch's copy. When none fits, the issues a validator reports are kept: those found inside
   * a branch's `$ref` (the branches are usually references to named types, so the message says
   * why the value is none of them), then that the value matches none.
   */
  private union(branches: JsonSchema[]): Check {
    const checks = branches.map((branch) => this.compile(branch));
    let types: (Set<string> | undefined)[] | undefined;
    return (value, run) => {
      types ??= branches.map((branch) => this.typesOf(branch));
      const type = jsonType(value);
      const { tracking, failed, insideRef } = run;
      const depth = run.path.length;
      run.tracking = false;
      run.insideRef = false;
      for (let i = 0; i < checks.length; i++) {
        if (types[i] && !types[i]!.has(type)) continue;
        run.failed = false;
        const out = checks[i](value, run);
        run.path.length = depth;
        if (!run.failed) {
          run.tracking = tracking;
          run.failed = failed;
          run.insideRef = insideRef;
          return out;
        }
      }
      run.tracking = tracking;
      run.failed = failed;
      run.insideRef = insideRef;
      if (tracking) {
        for (const check of checks) {
          const trial: Run = { ...run, issues: [], total: 0, viaRefTotal: 0, insideRef: false };
          check(value, trial);
          run.path.length = depth;
          const listed = trial.issues.filter((issue) => issue.viaRef);
          for (const issue of listed) record(run, { ...issue, viaRef: run.insideRef || undefined });
          // Those found beyond the trial's list: counted.
          run.total += trial.viaRefTotal - listed.length;
          if (run.insideRef) run.viaRefTotal += trial.viaRefTotal - listed.length;
        }
      }
      report(run, "anyOf", value);
      return value;
    };
  }

  private numberKeywords(schema: JsonSchema): ((value: unknown, run: Run) => void) | undefined {
    const checks: ((value: unknown, run: Run) => void)[] = [];
    for (const [keyword, outside] of NUMBER_BOUNDS) {
      const limit = schema[keyword];
      if (typeof limit === "number")
        checks.push((value, run) => outside(value as number, limit) && report(run, keyword, value, limit));
    }
    const format = this.format(schema);
    if (format) checks.push(format);
    return sequence(checks);
  }

  private stringKeywords(schema: JsonSchema): ((value: unknown, run: Run) => void) | undefined {
    const checks: ((value: unknown, run: Run) => void)[] = [];
    for (const [keyword, outside] of STRING_BOUNDS) {
      const limit = schema[keyword];
      if (typeof limit === "number")
        checks.push((value, run) => outside(codePoints(value as string), limit) && report(run, keyword, value, limit));
    }
    if (typeof schema.pattern === "string") {
      const source = schema.pattern;
      const pattern = linearRegExp(source);
      checks.push((value, run) => {
        const text = value as string;
        if (run.tracking && run.misses.some((miss) => miss.pattern === pattern && miss.text === text))
          return report(run, "pattern", value, source);
        const matched = matches(pattern, text, run);
        if (matched instanceof PatternTooSlow) return report(run, "patternTooSlow", value, matched);
        if (matched) return;
        if (!run.tracking && run.misses.length < 8) run.misses.push({ pattern, text });
        report(run, "pattern", value, source);
      });
    }
    const format = this.format(schema);
    if (format) checks.push(format);
    return sequence(checks);
  }

  private format(schema: JsonSchema): ((value: unknown, run: Run) => void) | undefined {
    const name = schema.format;
    if (name === undefined) return undefined;
    const format =
      typeof name === "string" && hasOwn(fullFormats, name) ? (fullFormats as Record<string, Format>)[name] : undefined;
    if (format === undefined)
      throw new Error(`typemcp: the schema asks for the format ${JSON.stringify(name)}, which typemcp does not know`);
    return (value, run) => passesFormat(format, value) || report(run, "format", value, name);
  }

  private arrayKeywords(schema: JsonSchema): Check | undefined {
    const { uniqueItems } = schema as { uniqueItems?: boolean };
    const bounds = ARRAY_BOUNDS.filter(([keyword]) => typeof schema[keyword] === "number").map(
      ([keyword, outside]) => [keyword, outside, schema[keyword] as number] as const,
    );
    const prefix = ((schema.prefixItems as JsonSchema[] | undefined) ?? []).map((item) => this.compile(item));
    const restSchema = (schema.items ?? schema.unevaluatedItems) as JsonSchema | undefined;
    if (bounds.length === 0 && !uniqueItems && prefix.length === 0 && restSchema === undefined) return undefined;
    const rest = restSchema === undefined ? this.anything : this.compile(restSchema);
    const scalarItems =
      restSchema !== undefined &&
      ["string", "number", "integer", "boolean", "null"].includes(restSchema.type as string);
    return (value, run) => {
      const items = value as unknown[];
      for (let i = 0; i < bounds.length; i++) {
        const [keyword, outside, limit] = bounds[i];
        if (outside(items.length, limit)) report(run, keyword, value, limit);
      }
      const out = this.items(items, prefix, rest, run);
      if (uniqueItems) {
        const pair = scalarItems ? duplicateScalars(items) : duplicateItems(items);
        if (pair) report(run, "uniqueItems", value, pair);
      }
      return out;
    };
  }

  private items(items: unknown[], prefix: Check[], rest: Check, run: Run): unknown[] {
    const { project } = run;
    const out = project ? new Array(items.length) : items;
    const { tracking } = run;
    for (let i = 0; i < items.length; i++) {
      if (run.failed && !tracking) return out; // the first pass needs no more
      if (tracking) run.path.push(i);
      const check = prefix[i] ?? rest;
      let item = check(items[i], run);
      // As JSON.stringify writes it: no holes in arrays. What goes out is null, so null is checked.
      if (project && item === undefined) item = check(null, run);
      if (tracking) run.path.pop();
      if (project) out[i] = item;
    }
    return out;
  }

  private objectKeywords(schema: JsonSchema): Check | undefined {
    const declared = (schema.properties as Record<string, JsonSchema> | undefined) ?? {};
    const keys = Object.keys(declared);
    const checks = keys.map((key) => this.compile(declared[key]));
    const isDeclared = new Set(keys);
    const required = (schema.required as string[] | undefined) ?? [];
    const patterns = Object.entries((schema.patternProperties as Record<string, JsonSchema> | undefined) ?? {}).map(
      ([source, sub]) => ({ pattern: linearRegExp(source), check: this.compile(sub) }),
    );
    const additional = schema.additionalProperties as JsonSchema | boolean | undefined;
    const additionalCheck = typeof additional === "object" ? this.compile(additional) : undefined;
    // A schema that says nothing about keys (`{}`, `{"type": "object"}`) admits them all, and sends them as JSON.stringify would.
    const admitsAny =
      additional === true || (schema.properties === undefined && additional === undefined && patterns.length === 0);
    if (keys.length === 0 && required.length === 0 && patterns.length === 0 && additional === undefined)
      return undefined;
    const protoKeys = keys.map((key) => key === "__proto__");
    const isRequired = keys.map((key) => required.includes(key));
    const closedCopy = additional === false && patterns.length === 0;
    return (value, run) => {
      const object = value as Record<string, unknown>;
      const { project, tracking } = run;
      // The common case, fast: a first pass over a closed object, or a projection that leaves
      // undeclared keys behind. One look at each declared key; issues only noted.
      if (!tracking && closedCopy) {
        const out: Record<string, unknown> | undefined = project ? {} : undefined;
        // Checking, an undeclared key is refused: there is one when the object has more keys than the declared ones it has.
        let present = 0;
        for (let i = 0; i < keys.length; i++) {
          const key = keys[i];
          const item = hasOwn(object, key) ? object[key] : undefined;
          if (item === undefined) {
            if (isRequired[i]) run.failed = true;
            continue;
          }
          present++;
          const checked = checks[i](item, run);
          if (run.failed) return value;
          if (out && checked !== undefined) {
            if (protoKeys[i]) setOwn(out, key, checked);
            else out[key] = checked;
          }
        }
        if (!project && Object.keys(object).length !== present) run.failed = true;
        return out ?? value;
      }
      for (const key of required)
        if (!hasOwn(object, key) || (project && object[key] === undefined)) report(run, "required", value, key, key);
      const out: Record<string, unknown> | undefined = project ? {} : undefined;
      // Undeclared keys: each checked where the schema admits it, refused where it does not
      // (arguments), left behind without being looked at (results: a class's private fields).
      // Checked before the declared ones, as validators order their issues; sent after them.
      let undeclared: Record<string, unknown> | undefined;
      if (!(project && closedCopy)) {
        for (const key of Object.keys(object)) {
          if (isDeclared.has(key)) continue;
          let claimed = false;
          for (const { pattern, check } of patterns) {
            const matched = matches(pattern, key, run);
            if (matched instanceof PatternTooSlow) {
              // A key no pattern could be told about is refused, not checked under another schema.
              report(run, "patternTooSlow", key, matched, key);
              claimed = true;
              continue;
            }
            if (!matched) continue;
            claimed = true;
            undeclared = this.property(undeclared ?? {}, key, object[key], check, run, true);
          }
          if (claimed) continue;
          if (additional === false) report(run, "additionalProperties", value, undefined, key);
          else if (additionalCheck)
            undeclared = this.property(undeclared ?? {}, key, object[key], additionalCheck, run, true);
          else if (admitsAny) undeclared = this.property(undeclared ?? {}, key, object[key], this.anything, run, true);
        }
      }
      for (let i = 0; i < keys.length; i++) {
        if (run.failed && !run.tracking) return out ?? value; // the first pass needs no more
        const key = keys[i];
        if (hasOwn(object, key)) this.property(out, key, object[key], checks[i], run);
      }
      if (!out) return value;
      if (undeclared) for (const key of Object.keys(undeclared)) setOwn(out, key, undeclared[key]);
      return out;
    };
  }

  /** One property checked under its schema; projecting, written to `out` unless it is undefined. */
  private property(
    out: Record<string, unknown> | undefined,
    key: string,
    value: unknown,
    check: Check,
    run: Run,
    undeclared = false,
  ): Record<string, unknown> | undefined {
    if (!run.tracking) {
      const item = check(value, run);
      if (out && item !== undefined) setOwn(out, key, item);
      return out;
    }
    if (undeclared) run.dataKeys.push(run.path.length);
    run.path.push(key);
    const item = check(value, run);
    run.path.pop();
    if (undeclared) run.dataKeys.pop();
    if (out && item !== undefined) setOwn(out, key, item);
    return out;
  }
}

/** The checks in order, as one. */
function sequence(checks: ((value: unknown, run: Run) => void)[]): ((value: unknown, run: Run) => void) | undefined {
  if (checks.length === 0) return undefined;
  if (checks.length === 1) return checks[0];
  return (value, run) => {
    for (const check of checks) check(value, run);
  };
}

/** Records an issue found in a trial run: as report does, with the issue as it is. */
function record(run: Run, issue: Issue): void {
  run.total++;
  if (issue.viaRef) run.viaRefTotal++;
  if (run.issues.length < run.limit) run.issues.push(issue);
}

/** Indices of two equal items among scalars, found as JSON Schema validators find them (from the end, by value). */
function duplicateScalars(items: unknown[]): [number, number] | undefined {
  const seen = new Map<unknown, number>();
  for (let i = items.length - 1; i >= 0; i--) {
    const key = typeof items[i] === "string" ? `"${items[i] as string}` : items[i];
    const j = seen.get(key);
    if (j !== undefined) return [i, j];
    seen.set(key, i);
  }
  return undefined;
}

/** Indices of two equal items, compared deeply, from the end. */
function duplicateItems(items: unknown[]): [number, number] | undefined {
  for (let i = items.length - 1; i >= 0; i--)
    for (let j = i - 1; j >= 0; j--) if (equal(items[i], items[j])) return [j, i];
  return undefined;
}

/** Why a value is invalid: the first issues (at most the limit), and how many there are. None: it is valid. */
export interface Found {
  issues: readonly Issue[];
  total: number;
}

/** What a valid value's check finds: shared, as most values are valid. */
const NO_ISSUES: readonly Issue[] = Object.freeze([]);
const VALID: Found = Object.freeze({ issues: NO_ISSUES, total: 0 });

/** The outcome of a projection: the wire copy (null when the value is invalid), and its issues. */
export interface Outcome extends Found {
  value: unknown;
}

/** A schema compiled once: `check` for arguments, `project` for results. */
export interface Checker {
  /** Checks a value (arguments, as parsed from JSON): its issues, `limit` of them listed. */
  check(value: unknown, limit?: number): Found;
  /**
   * The wire copy of a result: a fresh JSON value holding exactly what the schema describes
   * (`toJSON()` applied, undefined dropped, undeclared keys left behind), and its issues.
   * Throws a WireError for a value JSON cannot carry (a bigint, a cycle, a function, NaN).
   */
  project(value: unknown, limit?: number): Outcome;
}

/** How many issues a check lists (it counts the others): as many as a message shows. */
export const LISTED_ISSUES = 50;

function compileChecker(schema: JsonSchema): Checker {
  const compiled = new CheckBuilder(schema).compile(schema);
  const pass = (
    value: unknown,
    project: boolean,
    tracking: boolean,
    limit: number,
    misses: Run["misses"],
    backtracking: Backtracking,
    everyLevel = false,
  ): Run & { out: unknown } => {
    const run: Run = {
      project,
      tracking,
      failed: false,
      issues: [],
      limit,
      total: 0,
      viaRefTotal: 0,
      path: [],
      dataKeys: [],
      ancestors: [],
      everyLevel,
      insideRef: false,
      misses,
      backtracking,
    };
    let out: unknown;
    try {
      out = compiled(value, run);
      // A result of undefined goes out as null (see Checker.project): null is checked.
      if (project && out === undefined) out = compiled(null, run);
    } catch (error) {
      if (error === START_OVER) return pass(value, project, tracking, limit, misses, backtracking, true);
      throw error;
    }
    return Object.assign(run, { out });
  };
  const run = (value: unknown, project: boolean, limit: number): Outcome => {
    let first;
    const misses: Run["misses"] = [];
    const backtracking: Backtracking = { left: BACKTRACKING_CHECK_MS, answers: new Map() };
    try {
      first = pass(value, project, false, limit, misses, backtracking);
    } catch (error) {
      // The first pass keeps no path: the second finds the same problem, and says where.
      if (!(error instanceof WireError)) throw error;
      const { issues, total } = pass(value, project, true, limit, misses, backtracking);
      return { value: null, issues, total };
    }
    if (!first.failed) return { value: first.out, issues: NO_ISSUES, total: 0 };
    // The first pass may note an issue the second does not find (it counts keys; the second names them): the second decides.
    const { issues, total, out } = pass(value, project, true, limit, misses, backtracking);
    return { value: total === 0 ? out : null, issues, total };
  };
  return {
    check: (value, limit = LISTED_ISSUES) => {
      const { issues, total } = run(value, false, limit);
      return total === 0 ? VALID : { issues, total };
    },
    project: (value, limit = LISTED_ISSUES) => run(value, true, limit),
  };
}

/**
 * A schema's JSON without the annotations of its root and sub-schemas (titles, descriptions):
 * tools whose schemas differ only there (`get_weather_1Output`, `get_weather_2Output`) share
 * one checker, whose closures then run often enough to be optimized.
 */
function formOf(schema: unknown): unknown {
  if (schema === null || typeof schema !== "object" || Array.isArray(schema)) return schema;
  const form: Record<string, unknown> = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if (ANNOTATIONS.has(keyword)) continue;
    // The names in these maps are data (a property may be called "title"), their values schemas.
    if ((keyword === "properties" || keyword === "patternProperties" || keyword === "$defs") && isObject(value)) {
      form[keyword] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, formOf(sub)]));
    } else if (keyword === "anyOf" || keyword === "prefixItems") {
      form[keyword] = Array.isArray(value) ? value.map(formOf) : value;
    } else if (keyword === "items" || keyword === "unevaluatedItems" || keyword === "additionalProperties") {
      form[keyword] = formOf(value);
    } else {
      form[keyword] = value;
    }
  }
  return form;
}

const checkers = new Map<string, Checker>();

/** The checker of a schema: the one already compiled for a schema of the same form, else a new one. */
export function checkerOf(schema: JsonSchema): Checker {
  const form = JSON.stringify(formOf(schema));
  let checker = checkers.get(form);
  if (!checker) checkers.set(form, (checker = compileChecker(schema)));
  return checker;
}

/** The checker of `{}`: any JSON value (the wire copy of a text-only tool's result). */
export const ANY: Checker = compileChecker({});
