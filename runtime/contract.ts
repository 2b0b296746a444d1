/**
 * The contract between the transformer and the runtime.
 *
 * At build time the transformer rewrites every registration `mcp.tool(fn, options)` into
 * `mcp.tool(fn, options, <ToolContract literal>)`. That literal is the only thing the two
 * halves share: the runtime never looks at types, the transformer never runs tools.
 *
 * Versioning: `v` is written into every literal. A runtime accepts exactly the versions it
 * knows; code built by another transformer version fails at registration with a message
 * that says to rebuild, never with a wrong schema. Bump CONTRACT_VERSION on any change a
 * runtime of the other version could misread, and keep `test/contract.test.ts` in step.
 */

export const CONTRACT_VERSION = 2;

/**
 * The property typemcp's tag types (`Integer`, ...) are written with: `number & { "typemcp.tag"?: {...} }`.
 * It exists only in the type (no value ever has it): the transformer reads the tag from it.
 */
export const TAG_PROPERTY = "typemcp.tag";

/** A JSON Schema (2020-12 dialect, written so draft-07 validators accept it too). */
export type JsonSchema = { [keyword: string]: unknown };

export interface ToolContract {
  /**
   * Contract version, see CONTRACT_VERSION. Typed `number` (not the literal) so that a
   * manifest read from JSON is a ToolContract as it is; the runtime checks the value.
   */
  v: number;
  /** The tool name the schemas were built for: `options.name` when it is a literal, else the function's name. */
  name: string;
  /** The function's JSDoc comment, when it has one. */
  description?: string;
  /** Argument names in declaration order: the runtime passes arguments positionally. */
  params: string[];
  /** The function takes its arguments as one destructured object: the runtime passes the arguments object itself. */
  argumentsObject?: boolean;
  /** Position of a `ToolContext` parameter: the runtime inserts the call's context there. */
  context?: number;
  /** Root `{"type": "object", ...}`, titled `<name>Arguments`. */
  inputSchema: JsonSchema;
  /** Absent when the tool is text-only (`structuredOutput: false`, `any`, no annotation, ...). */
  outputSchema?: JsonSchema;
  /** True when results travel as `{"result": value}` (scalars, arrays, unions, numeric-keyed records). */
  wrapped?: boolean;
  /** Where the arguments hold Dates; absent when they hold none (most tools). Since version 2. */
  dates?: DatePlan;
  /**
   * Set when the build reported an error for this registration (tspc still emits JavaScript).
   * The runtime then refuses the registration with this message: never a tool without schemas.
   */
  error?: string;
}

/**
 * Where a tool's arguments hold Dates. JSON carries a Date as its date-time string; once the
 * arguments are validated, the runtime gives the tool a Date for each such string, so that it
 * gets what its parameter types say. Only the parts that can hold a Date are described.
 */
export interface DatePlan {
  /** The arguments object: its properties are the parameters (or the destructured parameter's properties). */
  arguments: DateNode;
  /** Plans of named types, by name, for `ref` (a recursive type refers to its own). */
  defs?: Record<string, DateNode>;
}

/** What may hold a Date at one place of a value; a part that holds none is left out (or null). */
export interface DateNode {
  /** A string here is a Date's: the tool gets the Date it stands for. */
  date?: true;
  /** Strings here that stay strings: the string literals of a union beside the Date (`Date | "now"`). */
  keep?: string[];
  /** An object's keys. A key listed as null holds no Date (additionalProperties does not apply to it). */
  properties?: Record<string, DateNode | null>;
  /** An object's other keys. */
  additionalProperties?: DateNode;
  /** An array's first items, by position (null: no Date there). */
  prefixItems?: (DateNode | null)[];
  /** An array's items after prefixItems. */
  items?: DateNode;
  /** The plan named so in `defs`, alone in its node. */
  ref?: string;
}
