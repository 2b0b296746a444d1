import type { JsonSchema } from "../../contract/contract";
import { KEYWORD_ROWS, keywordRow } from "../../contract/keywords";
import { linearRegExp, PatternTooSlow } from "../linear-regexp";
import { type Check, DROPPED, type KeywordCheck, matches, type ObjectKeywords, property } from "./pass";
import { codePoints, equal, formatNamed, hasOwn, jsonType, passesFormat, typeTest } from "./values";

/**
 * A schema compiled, once, into closures: one per keyword, in the order JSON Schema validators
 * evaluate them (the type, then `const`, `enum`, `anyOf`, then the keywords of the value's own
 * type), so that the issues are the ones a validator reports. The closures decide what is valid
 * and say why, in both ways of walking a value (runtime/validation/pass.ts: validating, or
 * making the wire copy); generated code takes the common case from a schema's second use on
 * (runtime/validation/generate.ts) and leaves them everything else. Patterns run on a
 * linear-time engine (runtime/linear-regexp.ts): no string makes a check backtrack.
 */

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
 * Compiles one schema document into its checks (a closure per keyword): `$ref`s resolve against
 * its root, each target compiled once (see validatorOf, runtime/validation/validator.ts).
 */
export class SchemaCompiler {
  private readonly refs = new Map<string, Check>();
  private readonly refTypes = new Map<string, Set<string> | undefined>();

  constructor(private readonly root: JsonSchema) {}

  compile(schema: JsonSchema | boolean): Check {
    if (schema === true) return this.anything;
    if (schema === false) return (value, pass) => (pass.report("false", value), value);
    for (const keyword of Object.keys(schema)) {
      if (!keywordRow(keyword))
        throw new Error(
          `typemcp: the schema uses the keyword ${JSON.stringify(keyword)}, which typemcp does not check`,
        );
    }
    const keywords = Object.keys(schema).filter((keyword) => !ANNOTATIONS.has(keyword));
    // A reference and nothing else (a property of a named type): its target's checks are the
    // schema's, and they prepare the value themselves (toJSON applied once, as JSON.stringify does).
    if (keywords.length === 1 && keywords[0] === "$ref" && typeof schema.$ref === "string")
      return this.ref(schema.$ref);
    const general = this.general(schema);
    // A scalar type and nothing else that checks (most properties): a value of the type is
    // valid as it is, and is its own wire copy; anything else takes the general path.
    if (
      keywords.length === 1 &&
      keywords[0] === "type" &&
      ["string", "number", "integer", "boolean", "null"].includes(schema.type as string)
    ) {
      // An integer beyond the safe range takes the general path: refused among arguments.
      const test = schema.type === "integer" ? Number.isSafeInteger : typeTest(schema.type as string);
      return (value, pass) => (test(value) ? value : general(value, pass));
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
    return (input, pass) => {
      const { strategy } = pass;
      const value = strategy.prepare(input, pass);
      if (value === DROPPED) return undefined;
      // A reference, or a union's branch, walks the value (copying, makes its wire copy); the
      // strategy says what container keywords beside them do (Strategy.walked).
      let out = value;
      let walked = false;
      if (ref) {
        out = ref(value, pass);
        walked = true;
        if (pass.halted) return out;
      }
      if (own) own(value, pass);
      if (union) {
        out = union(value, pass);
        walked = true;
      }
      switch (typeof value) {
        case "number":
          if (number) number(value, pass);
          return out;
        case "string":
          if (string) string(value, pass);
          return out;
        case "object": {
          if (value === null) return out;
          const keywords = Array.isArray(value) ? array : object;
          if (walked) return strategy.walked(value, out, keywords, pass);
          if (keywords) return strategy.container(value, keywords, pass);
          return strategy.unconstrained(value, out, this.copy, pass);
        }
        default:
          return out;
      }
    };
  }

  /** `type`, `const` and `enum`: they apply to a value of any type. */
  private ownKeywords(schema: JsonSchema): KeywordCheck | undefined {
    const checks: KeywordCheck[] = [];
    if (schema.type !== undefined) {
      const type = schema.type as string;
      const test = typeTest(type);
      checks.push((value, pass) => test(value) || pass.report("type", value, type));
      // Beyond 2^53 - 1: refused among arguments, sent as it is in a result (Strategy.unsafeInteger).
      if (type === "integer") checks.push((value, pass) => pass.strategy.unsafeInteger(value, pass));
    }
    if ("const" in schema) {
      const allowed = schema.const;
      checks.push((value, pass) => equal(value, allowed) || pass.report("const", value, allowed));
    }
    if (Array.isArray(schema.enum)) {
      const allowed = schema.enum;
      checks.push(
        (value, pass) => allowed.some((option) => equal(value, option)) || pass.report("enum", value, allowed),
      );
    }
    return sequence(checks);
  }

  /** A value the schema says nothing about, as JSON carries it: a fresh copy (see Strategy.unconstrained). */
  private readonly copy: Check = (value, pass) => (Array.isArray(value) ? this.anyArray : this.anyObject)(value, pass);

  private readonly anything: Check = this.compile({});
  private readonly anyArray: Check = (value, pass) => pass.strategy.items(value as unknown[], [], this.anything, pass);
  private readonly anyObject: Check = (value, pass) => {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value as object)) {
      if (pass.halted) break;
      property(out, key, (value as Record<string, unknown>)[key], this.anything, pass, true);
    }
    return out;
  };

  private ref(ref: string): Check {
    let check = this.refs.get(ref);
    if (!check) {
      let compiled: Check | undefined;
      // Compiled when first walked: a schema may refer to itself.
      check = (value, pass) => {
        const outside = pass.insideRef;
        pass.insideRef = true;
        const out = (compiled ??= this.compile(this.target(ref)))(value, pass);
        pass.insideRef = outside;
        return out;
      };
      this.refs.set(ref, check);
    }
    return check;
  }

  /** What a `$ref` points at: the root, or one of its `$defs` (the only references typemcp writes). */
  target(ref: string): JsonSchema {
    if (ref === "#") return this.root;
    const defs = this.root.$defs as Record<string, JsonSchema> | undefined;
    const name = ref.startsWith("#/$defs/") ? ref.slice(8).replace(/~1/g, "/").replace(/~0/g, "~") : undefined;
    if (name === undefined || !defs || !hasOwn(defs, name))
      throw new Error(`typemcp: the schema refers to ${ref}, which it does not define`);
    return defs[name];
  }

  /** The JSON types a schema admits at most (undefined: any), looking through references: a union skips the branches a value cannot fit. */
  typesOf(schema: JsonSchema, seen = new Set<string>()): Set<string> | undefined {
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
   * `anyOf`: the first branch the value fits (among those of its JSON type); copying, that
   * branch's copy. When none fits, the issues a validator reports are kept: those found inside
   * a branch's `$ref` (the branches are usually references to named types, so the message says
   * why the value is none of them), then that the value matches none.
   */
  private union(branches: JsonSchema[]): Check {
    const checks = branches.map((branch) => this.compile(branch));
    let types: (Set<string> | undefined)[] | undefined;
    return (value, pass) => {
      types ??= branches.map((branch) => this.typesOf(branch));
      const type = jsonType(value);
      const depth = pass.path.length;
      // Each branch tried in a pass of its own, which lists nothing: the first that fits answers.
      const trial = pass.trial();
      for (let i = 0; i < checks.length; i++) {
        if (types[i] && !types[i]!.has(type)) continue;
        const out = checks[i](value, trial.again());
        pass.path.length = depth;
        if (pass.endedBy(trial)) return out;
        if (!trial.failed) return out;
      }
      if (pass.listing) {
        for (const check of checks) {
          const listed = pass.listingTrial();
          check(value, listed);
          pass.path.length = depth;
          if (pass.endedBy(listed)) return value;
          const kept = listed.issues.filter((issue) => issue.viaRef);
          for (const issue of kept) pass.record({ ...issue, viaRef: pass.insideRef || undefined });
          // Those found beyond the trial's list: counted.
          pass.total += listed.viaRefTotal - kept.length;
          if (pass.insideRef) pass.viaRefTotal += listed.viaRefTotal - kept.length;
        }
      }
      pass.report("anyOf", value);
      return value;
    };
  }

  private numberKeywords(schema: JsonSchema): KeywordCheck | undefined {
    const checks: KeywordCheck[] = [];
    for (const [keyword, outside] of NUMBER_BOUNDS) {
      const limit = schema[keyword];
      if (typeof limit === "number")
        checks.push((value, pass) => outside(value as number, limit) && pass.report(keyword, value, limit));
    }
    const format = this.format(schema);
    if (format) checks.push(format);
    return sequence(checks);
  }

  private stringKeywords(schema: JsonSchema): KeywordCheck | undefined {
    const checks: KeywordCheck[] = [];
    for (const [keyword, outside] of STRING_BOUNDS) {
      const limit = schema[keyword];
      if (typeof limit === "number")
        checks.push((value, pass) => outside(codePoints(value as string), limit) && pass.report(keyword, value, limit));
    }
    if (typeof schema.pattern === "string") {
      const source = schema.pattern;
      const pattern = linearRegExp(source);
      checks.push((value, pass) => {
        const text = value as string;
        if (pass.listing && pass.shared.misses?.some((miss) => miss.pattern === pattern && miss.text === text))
          return pass.report("pattern", value, source);
        const matched = matches(pattern, text, pass);
        if (matched instanceof PatternTooSlow) return pass.report("patternTooSlow", value, matched);
        if (matched) return;
        if (!pass.listing && (pass.shared.misses ??= []).length < 8) pass.shared.misses.push({ pattern, text });
        pass.report("pattern", value, source);
      });
    }
    const format = this.format(schema);
    if (format) checks.push(format);
    return sequence(checks);
  }

  private format(schema: JsonSchema): KeywordCheck | undefined {
    const name = schema.format;
    if (name === undefined) return undefined;
    const format = formatNamed(name);
    if (format === undefined)
      throw new Error(`typemcp: the schema asks for the format ${JSON.stringify(name)}, which typemcp does not know`);
    return (value, pass) => passesFormat(format, value) || pass.report("format", value, name);
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
    return (value, pass) => {
      const items = value as unknown[];
      for (let i = 0; i < bounds.length; i++) {
        const [keyword, outside, limit] = bounds[i];
        if (outside(items.length, limit)) pass.report(keyword, value, limit);
      }
      const out = pass.strategy.items(items, prefix, rest, pass);
      if (uniqueItems) {
        const pair = scalarItems ? duplicateScalars(items) : duplicateItems(items);
        if (pair) pass.report("uniqueItems", value, pair);
      }
      return out;
    };
  }

  private objectKeywords(schema: JsonSchema): Check | undefined {
    const declared = (schema.properties as Record<string, JsonSchema> | undefined) ?? {};
    const keys = Object.keys(declared);
    const checks = keys.map((key) => this.compile(declared[key]));
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
    const compiled: ObjectKeywords = {
      keys,
      checks,
      isRequired: keys.map((key) => required.includes(key)),
      protoKeys: keys.map((key) => key === "__proto__"),
      isDeclared: new Set(keys),
      required,
      closed: additional === false && patterns.length === 0,
      undeclared: (object, key, into, pass) => {
        let claimed = false;
        for (const { pattern, check } of patterns) {
          const matched = matches(pattern, key, pass);
          if (matched instanceof PatternTooSlow) {
            // A key no pattern could be told about is refused, not checked under another schema.
            pass.report("patternTooSlow", key, matched, key);
            claimed = true;
            continue;
          }
          if (!matched) continue;
          claimed = true;
          property(into, key, object[key], check, pass, true);
        }
        if (claimed) return;
        if (additional === false) pass.report("additionalProperties", object, undefined, key);
        else if (additionalCheck) property(into, key, object[key], additionalCheck, pass, true);
        else if (admitsAny) property(into, key, object[key], this.anything, pass, true);
      },
    };
    return (value, pass) => pass.strategy.properties(value as Record<string, unknown>, compiled, pass);
  }
}

/** The checks in order, as one. */
function sequence(checks: KeywordCheck[]): KeywordCheck | undefined {
  if (checks.length === 0) return undefined;
  if (checks.length === 1) return checks[0];
  return (value, pass) => {
    for (const check of checks) check(value, pass);
  };
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
