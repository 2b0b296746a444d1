import type { JsonSchema } from "./contract";
import { ANY, type BranchOracle, hasOwn, projectWithin, resolve, toWire } from "./wire";

/** A schema's wire projection as one function: `toWire(value, schema)` without reading the schema on every call. */
export type Projector = (value: unknown) => unknown;

/**
 * Generated code goes only this deep by itself; deeper values (and any cycle) are the
 * interpreter's, which looks for cycles there.
 */
const MAX_DEPTH = 32;

/** Thrown by generated code where only the interpreter can go on (too deep to be sure there is no cycle). */
const BAIL = Symbol("project with the interpreter");

/** How generated code treats one (resolved) schema: a function per object, array or union; anything else inline. */
type Shape =
  | { kind: "object"; properties: [string, JsonSchema][]; additional?: JsonSchema }
  | { kind: "array"; prefix: JsonSchema[]; rest: JsonSchema }
  | { kind: "union"; branches: JsonSchema[] }
  | { kind: "interpreted" };

/** What the interpreter sends as it is, whatever the schema says (so scalar schemas need no code of their own). */
const SENT_AS_IS = (x: string) => `typeof ${x} === "string" || typeof ${x} === "boolean" || ${x} === null || (typeof ${x} === "number" && isFinite(${x}))`;

const isSchema = (value: unknown): value is JsonSchema => value !== null && typeof value === "object" && !Array.isArray(value);

/**
 * The shapes generated code handles are the ones the interpreter treats plainly: an object
 * with declared properties and no other keys or a schema for the others (a record), an
 * array or tuple, a union. For those it must give exactly what `toWire` gives. Scalars are
 * sent as they are under any schema; other objects (open ones, pattern properties) and
 * anything unsendable go to the interpreter.
 */
function shapeOf(schema: JsonSchema, withOracle: boolean): Shape {
  if (Array.isArray(schema.anyOf)) {
    const branches = schema.anyOf as unknown[];
    // Without an oracle the interpreter cannot try branches; that case is not worth code of its own.
    return withOracle && branches.length > 0 && branches.every(isSchema) ? { kind: "union", branches } : { kind: "interpreted" };
  }
  const type = schema.type;
  if (type === "object") {
    const declared = schema.properties ?? {};
    const additional = schema.additionalProperties;
    // Without declared properties and without additionalProperties an object is open: the interpreter copies it.
    const described = schema.properties !== undefined || isSchema(additional);
    // A declared "__proto__" would need a defined property, not an assignment: rare enough to leave to the interpreter.
    if (!described || !isSchema(declared) || schema.patternProperties !== undefined || Object.prototype.hasOwnProperty.call(declared, "__proto__")) {
      return { kind: "interpreted" };
    }
    if (additional !== undefined && additional !== false && !isSchema(additional)) return { kind: "interpreted" };
    const properties = Object.entries(declared).filter((entry): entry is [string, JsonSchema] => isSchema(entry[1]));
    if (properties.length !== Object.keys(declared).length) return { kind: "interpreted" };
    return { kind: "object", properties, additional: isSchema(additional) ? additional : undefined };
  }
  if (type === "array") {
    const prefix = schema.prefixItems ?? [];
    const rest = schema.items ?? schema.unevaluatedItems ?? ANY;
    if (Array.isArray(prefix) && prefix.every(isSchema) && isSchema(rest)) return { kind: "array", prefix, rest };
  }
  return { kind: "interpreted" };
}

/** Writes the JavaScript of a schema's projector: one function per object, array and union schema, scalars inline. */
class ProjectorWriter {
  /** Schemas the generated code hands to the interpreter or asks the oracle about, by index. */
  readonly schemas: JsonSchema[] = [];
  private readonly functions: string[] = [];
  private readonly functionOf = new Map<JsonSchema, string>();

  constructor(
    private readonly root: JsonSchema,
    private readonly withOracle: boolean,
  ) {}

  /** The program: the functions, then the root's, which takes the value as it comes (a scalar, toJSON, undefined). */
  program(): string {
    const root = `function root(v) {\n  let x = v;\n  if (x !== undefined) { ${this.convert(this.root, "-1")} }\n  return x;\n}`;
    return `${this.functions.join("\n")}\n${root}\nreturn root;`;
  }

  private shape(resolved: JsonSchema): Shape {
    return shapeOf(resolved, this.withOracle);
  }

  /** Statements that turn `x` (never undefined) into its wire value, or into undefined when it is not sent. */
  private convert(schema: JsonSchema, depth: string): string {
    const resolved = resolve(schema, this.root);
    const shape = this.shape(resolved);
    switch (shape.kind) {
      case "union":
        // The interpreter sends scalars as they are and looks at the branches for objects and arrays.
        return `if (!(${SENT_AS_IS("x")})) x = typeof x === "object" && typeof x.toJSON !== "function" ? ${this.functionFor(resolved)}(x, ${depth} + 1) : I(x, ${this.indexOf(resolved)});`;
      case "object":
      case "array":
        return `x = ${this.functionFor(resolved)}(x, ${depth} + 1);`;
      case "interpreted":
        return `if (!(${SENT_AS_IS("x")})) x = I(x, ${this.indexOf(resolved)});`;
    }
  }

  /** An expression that projects `v` (defined) at depth `d` with a schema. */
  private projection(schema: JsonSchema): string {
    const resolved = resolve(schema, this.root);
    const kind = this.shape(resolved).kind;
    return kind === "object" || kind === "array" ? `${this.functionFor(resolved)}(v, d)` : `I(v, ${this.indexOf(resolved)})`;
  }

  private indexOf(schema: JsonSchema): number {
    const at = this.schemas.indexOf(schema);
    return at >= 0 ? at : this.schemas.push(schema) - 1;
  }

  /**
   * The name of the function that projects values of an object, array or union schema
   * (written once, even when recursive). A union's function takes only objects and arrays
   * without toJSON(): `convert` sends it nothing else.
   */
  private functionFor(schema: JsonSchema): string {
    const resolved = resolve(schema, this.root);
    const known = this.functionOf.get(resolved);
    if (known) return known;
    const name = `p${this.functionOf.size}`;
    this.functionOf.set(resolved, name);
    const shape = this.shape(resolved);
    const lines = [`function ${name}(v, d) {`];
    if (shape.kind === "object") {
      // A value of another shape than the schema's, or one with toJSON(), goes to the interpreter from here.
      lines.push(`  if (typeof v !== "object" || v === null || Array.isArray(v) || typeof v.toJSON === "function") return I(v, ${this.indexOf(resolved)});`);
      lines.push(`  if (d > ${MAX_DEPTH}) throw BAIL;`, "  const o = {};", "  let x;");
      for (const [key, sub] of shape.properties) {
        const property = JSON.stringify(key);
        // Own properties only (H: hasOwnProperty), as the interpreter reads them.
        lines.push(`  x = v[${property}];`, `  if (x !== undefined && H.call(v, ${property})) { ${this.convert(sub, "d")} if (x !== undefined) o[${property}] = x; }`);
      }
      if (shape.additional) {
        // Undeclared keys, after the declared ones, each with the record's value schema. A
        // "__proto__" key (JSON.parse makes it an own property) stays data: K defines it.
        const declared = shape.properties.map(([key]) => `k === ${JSON.stringify(key)}`);
        lines.push("  for (const k of Object.keys(v)) {");
        if (declared.length) lines.push(`    if (${declared.join(" || ")}) continue;`);
        lines.push("    x = v[k];", `    if (x !== undefined) { ${this.convert(shape.additional, "d")} if (x !== undefined) { if (k === "__proto__") K(o, k, x); else o[k] = x; } }`, "  }");
      }
      lines.push("  return o;");
    } else if (shape.kind === "array") {
      lines.push(`  if (!Array.isArray(v) || typeof v.toJSON === "function") return I(v, ${this.indexOf(resolved)});`);
      lines.push(`  if (d > ${MAX_DEPTH}) throw BAIL;`, "  const n = v.length, o = new Array(n);", "  let x;");
      // As JSON.stringify does: an undefined item (or a hole) is sent as null.
      shape.prefix.forEach((item, i) => {
        lines.push(`  if (n > ${i}) { x = v[${i}]; if (x !== undefined) { ${this.convert(item, "d")} } o[${i}] = x === undefined ? null : x; }`);
      });
      lines.push(`  for (let i = ${shape.prefix.length}; i < n; i++) {`, "    x = v[i];", `    if (x !== undefined) { ${this.convert(shape.rest, "d")} }`, "    o[i] = x === undefined ? null : x;", "  }", "  return o;");
    } else if (shape.kind === "union") {
      // v is an object or array without toJSON(): the branches whose type admits it are tried
      // in order, each projection checked by the oracle; the first (or the first branch) otherwise.
      lines.push("  let o;", "  if (Array.isArray(v)) {", ...this.tries(shape.branches, "array"), "  }", ...this.tries(shape.branches, "object"));
    } else {
      throw new Error(`no function for a ${shape.kind} schema`);
    }
    lines.push("}");
    this.functions.push(lines.join("\n"));
    return name;
  }

  /** As the interpreter's projectUnion, for a value of one JSON type. */
  private tries(branches: JsonSchema[], jsonType: "object" | "array"): string[] {
    const candidates = branches.filter((branch) => {
      const type = resolve(branch, this.root).type;
      return type === undefined || type === jsonType;
    });
    const lines: string[] = [];
    if (candidates.length > 1) {
      for (const branch of candidates) lines.push(`  o = ${this.projection(branch)}; if (F(o, ${this.indexOf(branch)})) return o;`);
    }
    lines.push(`  return ${this.projection(candidates[0] ?? branches[0])};`);
    return lines;
  }
}

function defineKey(target: object, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * Compiles `toWire(·, schema, oracle)` into specialized code, as Ajv compiles a validator:
 * the property names, the checks and the recursion are written out once, so a call reads
 * no schema. Whatever the code does not handle plainly it hands to the interpreter for that
 * sub-value; any failure (a bigint, a cycle, too deep) starts the whole projection over in
 * the interpreter, which says exactly where the value went wrong.
 */
export function compileProjector(schema: JsonSchema, oracle?: BranchOracle): Projector {
  const interpreted: Projector = (value) => toWire(value, schema, oracle);
  let generated: (value: unknown) => unknown;
  try {
    const writer = new ProjectorWriter(schema, oracle !== undefined);
    const program = writer.program();
    const schemas = writer.schemas;
    const interpret = (value: unknown, index: number): unknown => projectWithin(value, schemas[index], schema, oracle);
    const fits = (value: unknown, index: number): boolean => oracle!.fits(schemas[index], value);
    generated = new Function("I", "F", "K", "H", "BAIL", program)(interpret, fits, defineKey, hasOwn, BAIL) as (value: unknown) => unknown;
  } catch {
    return interpreted; // a schema the generator cannot write for still goes over the wire, more slowly
  }
  return (value) => {
    try {
      const projected = generated(value);
      return projected === undefined ? null : projected;
    } catch {
      return interpreted(value);
    }
  };
}
