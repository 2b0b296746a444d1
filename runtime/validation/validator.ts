import type { JsonSchema } from "../../contract/contract";
import { ANNOTATIONS, SchemaCompiler } from "./compile";
import { type Found, type Issue, LISTED_ISSUES, type Outcome } from "./issues";
import { type Generated, generateCheck, generateCopy, MISS } from "./generate";
import { type Check, COPYING, Pass, type Shared, type Strategy, VALIDATING } from "./pass";
import { isObject } from "./values";

/**
 * A schema's validator: the values of its arguments validated, its results' wire copies made,
 * each by one walk of the schema's checks (runtime/validation/compile.ts), made once. A walk is
 * made twice only when the value is invalid: a first pass that lists nothing (most values are
 * valid, and it allocates nothing but the copy), then a pass that says where and why, keeping
 * the first LISTED_ISSUES issues and counting the rest: a value with a million wrong items costs
 * one walk, not a million issue objects.
 */
export interface Validator {
  /** Validates a value (arguments, as parsed from JSON): its issues, `limit` of them listed. */
  validate(value: unknown, limit?: number): Found;
  /**
   * The wire copy of a result: a fresh JSON value holding exactly what the schema describes
   * (`toJSON()` applied, undefined dropped, undeclared keys left behind), validated, and its
   * issues. Throws a WireError for a value JSON cannot carry (a bigint, a cycle, a function, NaN).
   */
  wireCopy(value: unknown, limit?: number): Outcome;
}

/** What a valid value's check finds: shared, as most values are valid. */
const NO_ISSUES: readonly Issue[] = Object.freeze([]);
const VALID: Found = Object.freeze({ issues: NO_ISSUES, total: 0 });

/** One pass over the value, made again looking for cycles at every level when one was met deep down (see CHECKED_DEPTH). */
function walk(check: Check, value: unknown, strategy: Strategy, listing: boolean, limit: number, shared: Shared): Pass {
  let pass = new Pass(strategy, listing, limit, shared);
  pass.out = strategy.root(check, value, pass);
  if (pass.startOver) {
    pass = new Pass(strategy, listing, limit, shared, true);
    pass.out = strategy.root(check, value, pass);
  }
  return pass;
}

/** A value walked with one strategy: at most twice, the second time to say where and why. */
function run(check: Check, value: unknown, strategy: Strategy, limit: number): Outcome {
  const shared: Shared = {};
  const first = walk(check, value, strategy, false, limit, shared);
  if (!first.failed && !first.wireError) return { value: first.out, issues: NO_ISSUES, total: 0 };
  // The first pass keeps no path: the second finds the same problem, and says where. It may
  // also not find an issue the first noted (the first counts keys; the second names them): the
  // second decides.
  const second = walk(check, value, strategy, true, limit, shared);
  if (second.wireError) throw second.wireError;
  const { issues, total } = second;
  if (first.wireError) return { value: null, issues, total };
  return { value: total === 0 ? second.out : null, issues, total };
}

/**
 * A schema's values are checked, and its results copied, by generated code from its
 * GENERATE_AT-th of each on (runtime/validation/generate.ts): a process's first of each is the
 * closures', as before (generating then would add to a fresh process's first call), and every
 * later one is generated; what the generated code leaves to the closures, they walk as always.
 */
export const GENERATE_AT = 2;

/** A schema's validator, made anew (validatorOf shares them); `generateAt` as GENERATE_AT (Infinity: the closures always). */
export function compileValidator(schema: JsonSchema, generateAt = GENERATE_AT): Validator {
  const compiler = new SchemaCompiler(schema);
  const check = compiler.compile(schema);
  let checks = 0;
  let copies = 0;
  let checking: Generated | undefined;
  let copying: Generated | undefined;
  return {
    validate: (value, limit = LISTED_ISSUES) => {
      if (checking) {
        if (checking(value) !== MISS) return VALID;
      } else if (++checks === generateAt) checking = generateCheck(schema, compiler);
      const { issues, total } = run(check, value, VALIDATING, limit);
      return total === 0 ? VALID : { issues, total };
    },
    wireCopy: (value, limit = LISTED_ISSUES) => {
      if (copying) {
        const out = copying(value);
        if (out !== MISS) return { value: out, issues: NO_ISSUES, total: 0 };
      } else if (++copies === generateAt) copying = generateCopy(schema, compiler);
      return run(check, value, COPYING, limit);
    },
  };
}

/** Keywords whose value holds sub-schemas: by name, by position, or one. */
const SCHEMA_MAPS = new Set(["properties", "patternProperties", "$defs"]);
const SCHEMA_LISTS = new Set(["anyOf", "prefixItems"]);
const SCHEMA_ONES = new Set(["items", "unevaluatedItems", "additionalProperties"]);

/**
 * A schema's JSON without the annotations of its root and sub-schemas (titles, descriptions):
 * tools whose schemas differ only there (`get_weather_1Output`, `get_weather_2Output`) share
 * one validator, whose code then runs often enough to be optimized. Written in one
 * `JSON.stringify`, whose replacer drops an annotation only where a schema holds it: the names
 * in `properties` are data (a property may be called "title"), and so is every value of other
 * keywords (a `const` or an `enum` keeps what it holds). A tool's first call makes this key
 * for its arguments and its result: for 500 tools' first calls in a fresh process, 12 ms and
 * 39 M instructions, where a copy of each schema without them, then stringified, took 26 ms and
 * 82 M.
 */
function formOf(schema: JsonSchema): string {
  const names = new Set<object>(); // a map of sub-schemas by name, or a list of them: each value a schema
  const data = new Set<object>(); // a keyword's value that is not a schema, and all it holds: kept whole
  let root = true;
  return JSON.stringify(schema, function (this: object, key: string, value: unknown) {
    if (root) {
      root = false;
      return value;
    }
    if (data.has(this)) {
      if (typeof value === "object" && value !== null) data.add(value);
      return value;
    }
    if (names.has(this)) return value;
    if (ANNOTATIONS.has(key)) return undefined;
    if (typeof value === "object" && value !== null) {
      if (SCHEMA_MAPS.has(key) ? isObject(value) : SCHEMA_LISTS.has(key) && Array.isArray(value)) names.add(value);
      else if (!SCHEMA_ONES.has(key) || Array.isArray(value)) data.add(value);
    }
    return value;
  });
}

const validators = new Map<string, Validator>();

/** The validator of a schema: the one already compiled for a schema of the same form, else a new one. */
export function validatorOf(schema: JsonSchema): Validator {
  const form = formOf(schema);
  let validator = validators.get(form);
  if (!validator) validators.set(form, (validator = compileValidator(schema)));
  return validator;
}

/** The validator of `{}`: any JSON value (the wire copy of a text-only tool's result). */
export const ANY: Validator = compileValidator({});
