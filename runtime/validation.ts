import Ajv2020, { type ErrorObject, type ValidateFunction } from "ajv/dist/2020";
import { boundedErrors, hasMoreParts, type FoundErrors } from "./errors";
import addFormats from "ajv-formats";
import type { JsonSchema } from "./contract";
import { linearRegExp } from "./linear-regexp";
import { compileProjector, type Projector } from "./projector";
import { verdictOf, type Verdict } from "./verdict";
import { toWire, type BranchOracle } from "./wire";

/**
 * One Ajv for the process. Nothing is compiled at start-up: a schema is added on its tool's
 * first call and each validator is compiled once, when first needed, then kept. Schemas are
 * not checked against the meta-schema here (that would compile the meta-schema on the first
 * call): the transformer's output is checked by typemcp's own tests. A number is finite (`strictNumbers`):
 * JSON.parse reads `1e400` as Infinity, which no `number` or `Integer` parameter means. Patterns
 * run on a linear-time engine (linear-regexp.ts): no string makes validation backtrack.
 */
function newAjv(allErrors: boolean, ownProperties: boolean): Ajv2020 {
  const instance = new Ajv2020({ strict: false, validateSchema: false, strictNumbers: true, code: { regExp: linearRegExp }, allErrors, ownProperties });
  addFormats(instance);
  return instance;
}

/**
 * The Ajv instances, made when first needed. One decides (it stops at the first error: a
 * value with a million wrong items is refused at the first), one says why (every error, for
 * values small enough; see CompiledForm.errorsOf). Each in two kinds: a form that declares a
 * property Object.prototype has (`constructor`, `toString`...) is validated reading own
 * properties only (`ownProperties`), so that such a property left out is absent; other forms
 * without that check on every property, which costs a fifth of a call.
 */
const instances = new Map<string, Ajv2020>();

function ajvFor(allErrors: boolean, ownProperties: boolean): Ajv2020 {
  const key = `${allErrors} ${ownProperties}`;
  let instance = instances.get(key);
  if (!instance) instances.set(key, (instance = newAjv(allErrors, ownProperties)));
  return instance;
}

const INHERITED = new Set(Object.getOwnPropertyNames(Object.prototype));

/** Whether a form declares or requires a property whose name Object.prototype has. */
function namesInherited(form: unknown): boolean {
  if (form === null || typeof form !== "object") return false;
  const schema = form as Record<string, unknown>;
  const properties = schema.properties;
  if (properties !== null && typeof properties === "object" && Object.keys(properties).some((name) => INHERITED.has(name))) return true;
  if (Array.isArray(schema.required) && schema.required.some((name) => INHERITED.has(name))) return true;
  return Object.values(schema).some(namesInherited);
}

/** A value with more parts than this has its errors found by a bounded walk (errors.ts), not by Ajv's allErrors. */
const ALL_ERRORS_UP_TO_PARTS = 10_000;
/** The errors a message lists at most (it is cut at 4,000 characters anyway). */
const LISTED_ERRORS = 50;

/** Keywords that say nothing about which values are valid. */
const ANNOTATIONS = new Set(["title", "description", "default", "examples", "deprecated", "$comment", "readOnly", "writeOnly"]);
/** Keywords whose value holds sub-schemas: a map of them, a list of them, or one. */
const SCHEMA_MAPS = new Set(["properties", "patternProperties", "$defs"]);
const SCHEMA_LISTS = new Set(["anyOf", "allOf", "oneOf", "prefixItems"]);
const SCHEMA_ONE = new Set(["items", "additionalProperties", "unevaluatedItems", "unevaluatedProperties", "not", "propertyNames", "contains"]);

/**
 * A schema without its annotations: what validation depends on. Tools whose schemas differ
 * only in titles and descriptions (`get_weather_1Output`, `get_weather_2Output`) share one
 * compiled validator, which then runs often enough to be optimized. Sub-schemas keep their
 * places, so a JSON pointer into the schema points at the same sub-schema here.
 *
 * In the form that validates arguments, an integer is a safe integer: beyond 2^53 - 1, JSON.parse
 * reads a neighbour of the number written (`9007199254740993` is 9007199254740992), so the tool
 * would get another number than the client sent.
 */
function validationForm(schema: unknown, forArguments: boolean): unknown {
  if (schema === null || typeof schema !== "object" || Array.isArray(schema)) return schema;
  const form: Record<string, unknown> = {};
  const sub = (value: unknown) => validationForm(value, forArguments);
  for (const [keyword, value] of Object.entries(schema)) {
    if (ANNOTATIONS.has(keyword)) continue;
    if (SCHEMA_MAPS.has(keyword) && value && typeof value === "object") {
      form[keyword] = Object.fromEntries(Object.entries(value).map(([name, schema]) => [name, sub(schema)]));
    } else if (SCHEMA_LISTS.has(keyword) && Array.isArray(value)) {
      form[keyword] = value.map(sub);
    } else {
      form[keyword] = SCHEMA_ONE.has(keyword) ? sub(value) : value;
    }
  }
  if (forArguments && form.type === "integer") {
    if (!(typeof form.minimum === "number" && form.minimum >= -Number.MAX_SAFE_INTEGER)) form.minimum = -Number.MAX_SAFE_INTEGER;
    if (!(typeof form.maximum === "number" && form.maximum <= Number.MAX_SAFE_INTEGER)) form.maximum = Number.MAX_SAFE_INTEGER;
  }
  return form;
}

/** Every sub-schema object of a schema and its JSON pointer. */
function pointers(schema: unknown, at: string, into: Map<object, string>): Map<object, string> {
  if (schema !== null && typeof schema === "object") {
    into.set(schema, at);
    for (const [key, child] of Object.entries(schema)) pointers(child, `${at}/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`, into);
  }
  return into;
}

/**
 * How many answers a form gives without its compiled code (walked validations, interpreted
 * projections) before it compiles anyway: calls that follow each other without an idle turn
 * (a client in the same process, a burst) would otherwise never reach the faster code.
 */
const STAND_INS_BEFORE_COMPILE = 16;

/** The projector's place among what is pending compilation (JSON pointers are "" or begin with "/"). */
const PROJECTOR = "projector";

/**
 * One validation form as Ajv holds it, with everything compiled from it: the validator of
 * the whole, those of the union branches the projection asks about, and the projector.
 * Every schema of this form shares them.
 *
 * Until a validator is compiled, its questions are answered by walking the schema
 * (verdict.ts) wherever the walk can tell, and until the projector is compiled, results are
 * projected by the interpreter (toWire in wire.ts); the compiling waits for an idle turn (or
 * for STAND_INS_BEFORE_COMPILE answers): a call does not wait 1 to 10 ms for Ajv, or for the
 * projector's code. A rejection is always Ajv's, which says why.
 */
export class CompiledForm implements BranchOracle {
  private whole?: ValidateFunction;
  /** The whole's validator that finds every error, for messages (compiled on the first rejection). */
  private allErrors?: ValidateFunction;
  private readonly parts = new Map<string, ValidateFunction>();
  private pointerOf?: Map<object, string>;
  private projector?: Projector;
  /** Whether Ajv holds the form: it is added with the first validator compiled (a walked call needs no Ajv). */
  private added = false;
  /** Whether the Ajv that finds every error holds it (added with the first rejection of a small value). */
  private addedForMessages = false;
  /** Whether its validators read own properties only (see ajvFor). */
  private ownProperties?: boolean;
  /** What to compile in the next idle turn: validators by JSON pointer ("" is the whole), and PROJECTOR. */
  private pending?: Set<string>;
  /** Answers given without compiled code (see STAND_INS_BEFORE_COMPILE). */
  private standIns = 0;

  constructor(
    private readonly key: string,
    /** The schema without its annotations: what the projector and the oracle walk. */
    readonly form: JsonSchema,
  ) {}

  /** The validator of the whole (first error only: it decides; errorsOf says why). */
  get validate(): ValidateFunction {
    return (this.whole ??= this.compile(""));
  }

  /**
   * Why a value the form rejects is rejected. A value of up to ALL_ERRORS_UP_TO_PARTS parts:
   * every error, from Ajv with allErrors. A larger one: the first LISTED_ERRORS errors, in
   * Ajv's order, and how many there are, from a walk with bounded memory (errors.ts); Ajv's
   * allErrors would build an object per error (a million for a million wrong items) where a
   * message shows a few dozen. Either way, work proportional to the value.
   */
  errorsOf(value: unknown): FoundErrors {
    if (hasMoreParts(value, ALL_ERRORS_UP_TO_PARTS)) return boundedErrors(this.form, value, LISTED_ERRORS, (pointer) => this.validatorAt(pointer));
    this.allErrors ??= this.compileIn(true, "");
    this.allErrors(value);
    const errors = this.allErrors.errors ?? [];
    return { errors, total: errors.length };
  }

  /** The compiled projector (compiled on first use). */
  get toWire(): Projector {
    return (this.projector ??= compileProjector(this.form, this));
  }

  /**
   * Whether a value is valid. False means Ajv rejected it: `validate.errors` then say why.
   * Before the validator is compiled, a value the walk finds valid is accepted without it.
   */
  accepts(value: unknown): boolean {
    if (this.whole) return this.whole(value) === true;
    if (this.walked(this.form, value) === true) {
      this.compileSoon("");
      return true;
    }
    return this.validate(value) === true;
  }

  /** The value as it goes over the wire under this form: what toWire gives, interpreted until the projector is compiled. */
  project(value: unknown): unknown {
    if (this.projector || this.standIns >= STAND_INS_BEFORE_COMPILE) return this.toWire(value);
    this.standIns++;
    this.compileSoon(PROJECTOR);
    return toWire(value, this.form, this);
  }

  /** Whether a value fits one branch of a union of this form (the projection asks, to pick the branch). */
  fits(branch: JsonSchema, value: unknown): boolean {
    this.pointerOf ??= pointers(this.form, "", new Map());
    const pointer = this.pointerOf.get(branch);
    if (pointer === undefined) return false;
    const compiled = this.parts.get(pointer);
    if (compiled) return compiled(value) === true;
    const verdict = this.walked(branch, value);
    if (verdict === undefined) return this.validatorAt(pointer)(value) === true;
    this.compileSoon(pointer);
    return verdict;
  }

  /** The walk's verdict on a part of this form, while answers without compiled code are still given (see STAND_INS_BEFORE_COMPILE). */
  private walked(schema: JsonSchema, value: unknown): Verdict {
    if (this.standIns >= STAND_INS_BEFORE_COMPILE) return undefined;
    const verdict = verdictOf(schema, value, this.form);
    if (verdict !== undefined) this.standIns++;
    return verdict;
  }

  /** Compiles in the next idle turn what the walk or the interpreter stood in for, so that later calls use it. */
  private compileSoon(what: string): void {
    if (this.pending) {
      this.pending.add(what);
      return;
    }
    this.pending = new Set([what]);
    setImmediate(() => {
      const pending = this.pending!;
      this.pending = undefined;
      for (const at of pending) {
        try {
          if (at === PROJECTOR) void this.toWire;
          else if (at === "") void this.validate;
          else this.validatorAt(at);
        } catch {
          // A schema Ajv cannot compile fails the call that needs it, with the reason; not here.
        }
      }
    }).unref();
  }

  /** The validator of the sub-schema at a JSON pointer (`/properties/result/anyOf/1`), resolving `$ref`s against the whole form. */
  private validatorAt(pointer: string): ValidateFunction {
    let validator = this.parts.get(pointer);
    if (!validator) {
      validator = this.compile(pointer);
      this.parts.set(pointer, validator);
    }
    return validator;
  }

  /** Ajv's validator of the sub-schema at a JSON pointer ("" is the whole); the form is given to Ajv with the first. */
  private compile(pointer: string): ValidateFunction {
    return this.compileIn(false, pointer);
  }

  /** A validator from the Ajv that decides, or (`allErrors`) from the one that says why. */
  private compileIn(allErrors: boolean, pointer: string): ValidateFunction {
    this.ownProperties ??= namesInherited(this.form);
    const instance = ajvFor(allErrors, this.ownProperties);
    if (allErrors ? !this.addedForMessages : !this.added) {
      instance.addSchema(this.form, this.key);
      if (allErrors) this.addedForMessages = true;
      else this.added = true;
    }
    return instance.getSchema(pointer === "" ? this.key : `${this.key}#${pointer}`)!;
  }
}

/** Validation forms made so far, by their JSON text. */
const forms = new Map<string, CompiledForm>();

/** The compiled form of a schema: the one already made for a schema of the same form, else a new one. */
export function compiledForm(schema: JsonSchema, forArguments = false): CompiledForm {
  const form = validationForm(schema, forArguments) as JsonSchema;
  const text = JSON.stringify(form);
  let compiled = forms.get(text);
  if (!compiled) {
    compiled = new CompiledForm(`typemcp:schema/${forms.size}`, form);
    forms.set(text, compiled);
  }
  return compiled;
}

/**
 * Validates values against one published schema and projects results onto it. The work is
 * done by the schema's validation form, found on first use (not at registration: a server
 * with many tools starts without it).
 */
export class SchemaValidator {
  private form?: CompiledForm;

  constructor(
    readonly schema: JsonSchema,
    /** Validates a tool's arguments (integers must then be safe integers, see validationForm). */
    private readonly forArguments = false,
  ) {}

  /** The validator of the whole schema. */
  get validate(): ValidateFunction {
    return this.compiled.validate;
  }

  /** Whether a value is valid (see CompiledForm.accepts): when not, errorsOf says why. */
  accepts(value: unknown): boolean {
    return this.compiled.accepts(value);
  }

  /** Why a rejected value is rejected (see CompiledForm.errorsOf). */
  errorsOf(value: unknown): FoundErrors {
    return this.compiled.errorsOf(value);
  }

  /** The compiled projector of this schema (see toWire in wire.ts). */
  get toWire(): Projector {
    return this.compiled.toWire;
  }

  /** The value as it goes over the wire under this schema (see CompiledForm.project). */
  project(value: unknown): unknown {
    return this.compiled.project(value);
  }

  private get compiled(): CompiledForm {
    return (this.form ??= compiledForm(this.schema, this.forArguments));
  }
}

const MAX_INPUT_TEXT = 120;

/**
 * A value as it may appear in an error message: JSON, cut short when long (a message never
 * carries a large value whole). Never throws: a value JSON cannot write (a bigint, a symbol, a
 * cycle, Infinity) is written as String() writes it; one neither can write (nested deeper than
 * the stack, a revoked Proxy, a throwing toString) is described instead, or given `unshowable`.
 */
export function shortText(value: unknown, unshowable?: string): string {
  let text: string;
  try {
    text = typeof value === "number" && !Number.isFinite(value) ? String(value) : JSON.stringify(value) ?? String(value);
  } catch (error) {
    try {
      text = String(value);
    } catch {
      return unshowable ?? (error instanceof RangeError ? "(a value nested too deeply to show)" : "(a value that cannot be shown)");
    }
  }
  return text.length > MAX_INPUT_TEXT ? `${text.slice(0, MAX_INPUT_TEXT)}… (${text.length} characters)` : text;
}

function pointerToLocation(pointer: string): string[] {
  return pointer === "" ? [] : pointer.slice(1).split("/").map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
}

function valueAt(data: unknown, location: string[]): unknown {
  let value = data;
  for (const key of location) value = value !== null && typeof value === "object" ? (value as Record<string, unknown>)[key] : undefined;
  return value;
}

function oneOfList(values: unknown[]): string {
  const texts = values.map((v) => JSON.stringify(v));
  return texts.length === 1 ? texts[0] : `${texts.slice(0, -1).join(", ")} or ${texts[texts.length - 1]}`;
}

/** One Ajv error as a location and a sentence, in the style of pydantic (which the Python SDK's users know). */
function describe(error: ErrorObject, data: unknown): { location: string[]; message: string } {
  const location = pointerToLocation(error.instancePath);
  const input = () => ` [input_value=${shortText(valueAt(data, location))}]`;
  switch (error.keyword) {
    case "required":
      return { location: [...location, error.params.missingProperty], message: "Field required" };
    case "additionalProperties":
      return { location: [...location, error.params.additionalProperty], message: "Extra inputs are not permitted" };
    case "type": {
      const value = valueAt(data, location);
      const finite = typeof value === "number" && !Number.isFinite(value);
      return { location, message: `Input should be a ${finite ? "finite number" : `valid ${error.params.type}`}${input()}` };
    }
    case "const":
      return { location, message: `Input should be ${JSON.stringify(error.params.allowedValue)}${input()}` };
    case "enum":
      return { location, message: `Input should be ${oneOfList(error.params.allowedValues)}${input()}` };
    case "anyOf":
      return { location, message: `Input matches none of the allowed types${input()}` };
    case "format":
      return { location, message: `Input should be a valid ${error.params.format}${input()}` };
    case "minimum":
    case "maximum":
    case "exclusiveMinimum":
    case "exclusiveMaximum": {
      if (Math.abs(error.params.limit) === Number.MAX_SAFE_INTEGER && (error.keyword === "minimum" || error.keyword === "maximum")) {
        return { location, message: `Input should be a safe integer, from ${-Number.MAX_SAFE_INTEGER} to ${Number.MAX_SAFE_INTEGER}${input()}` };
      }
      const bound = { minimum: "greater than or equal to", maximum: "less than or equal to", exclusiveMinimum: "greater than", exclusiveMaximum: "less than" }[error.keyword];
      return { location, message: `Input should be ${bound} ${error.params.limit}${input()}` };
    }
    case "multipleOf":
      return { location, message: `Input should be a multiple of ${error.params.multipleOf}${input()}` };
    case "minLength":
    case "maxLength":
      return { location, message: `String should have at ${error.keyword === "minLength" ? "least" : "most"} ${error.params.limit} characters${input()}` };
    case "minItems":
    case "maxItems":
      return { location, message: `List should have at ${error.keyword === "minItems" ? "least" : "most"} ${error.params.limit} items${input()}` };
    case "uniqueItems":
      return { location, message: `List items should be unique (items ${Math.min(error.params.i, error.params.j)} and ${Math.max(error.params.i, error.params.j)} are equal)${input()}` };
    case "pattern":
      return { location, message: `String should match pattern ${JSON.stringify(error.params.pattern)}${input()}` };
    default:
      return { location, message: `Input ${error.message ?? "is invalid"}${input()}` };
  }
}

/**
 * Ajv's errors as one message that names the failing fields first:
 *
 *     1 validation error for WeatherData
 *     humidity
 *       Field required
 *
 * Errors inside the branches of a failed `anyOf` are folded into that `anyOf`'s own error.
 */
export function validationMessage(title: string, found: ErrorObject[] | FoundErrors, data: unknown): string {
  const errors = Array.isArray(found) ? found : found.errors;
  const unions = errors.filter((e) => e.keyword === "anyOf").map((e) => `${e.schemaPath}/`);
  const kept = errors.filter((e) => !unions.some((prefix) => e.schemaPath.startsWith(prefix)));
  const lines = kept.map((e) => describe(e, data)).flatMap(({ location, message }) => [location.join(".") || "(root)", `  ${message}`]);
  // Errors folded into a union's are not counted; `total` counts what a bounded walk did not list.
  const total = Array.isArray(found) || found.total === errors.length ? kept.length : found.total - errors.length + kept.length;
  const count = total === 1 ? "1 validation error" : `${total} validation errors`;
  const listed = kept.length < total ? ` (the first ${kept.length} listed)` : "";
  return [`${count} for ${title}${listed}`, ...lines].join("\n");
}
