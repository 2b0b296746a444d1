/**
 * The contract between the transformer and the runtime.
 *
 * At build time the transformer rewrites every registration into one that carries a contract
 * literal as its last argument:
 *
 *   mcp.tool(fn, options)          → mcp.tool(fn, options, <ToolContract>)
 *   mcp.prompt(fn, options)        → mcp.prompt(fn, options, <PromptContract>)
 *   mcp.resource(uri, fn, options) → mcp.resource(uri, fn, options, <ResourceContract>)
 *
 * That literal is the only thing the two halves share: the runtime never looks at types, the
 * transformer never runs the functions. A `typemcp manifest` holds the same objects.
 *
 * Versioning: `v` is written into every literal. A runtime accepts exactly the versions it
 * knows; code built by another transformer version fails at registration with a message
 * that says to rebuild, never with a wrong schema. Bump CONTRACT_VERSION on any change a
 * runtime of the other version could misread, and keep the runtime's tests in step.
 */

export const CONTRACT_VERSION = 2;

/**
 * The property typemcp's tag types (`Integer`, ...) are written with: `number & { "typemcp.tag"?: {...} }`.
 * It exists only in the type (no value ever has it): the transformer reads the tag from it.
 */
export const TAG_PROPERTY = "typemcp.tag";

/** A JSON Schema (2020-12 dialect, written so draft-07 validators accept it too). */
export type JsonSchema = { [keyword: string]: unknown };

/** What every registration's contract holds: the function's name and description, and how its parameters are passed. */
interface FunctionContract {
  /**
   * Contract version, see CONTRACT_VERSION. Typed `number` (not the literal) so that a
   * manifest read from JSON is a contract as it is; the runtime checks the value.
   */
  v: number;
  /** The name the schemas were built for: `options.name` when it is a literal, else the function's name. */
  name: string;
  /** The function's JSDoc comment, when it has one. */
  description?: string;
  /** Argument names in declaration order: the runtime passes arguments positionally. */
  params: string[];
  /** The function takes its arguments as one destructured object: the runtime passes the arguments object itself. */
  argumentsObject?: boolean;
  /** Position of a `ToolContext` parameter: the runtime inserts the request's context there. */
  context?: number;
  /**
   * Set when the build reported an error for this registration (tspc still emits JavaScript).
   * The runtime then refuses the registration with this message: never one without its schemas.
   */
  error?: string;
}

export interface ToolContract extends FunctionContract {
  /** Absent in a tool's contract (the kind contracts have always had). */
  kind?: "tool";
  /** Root `{"type": "object", ...}`, titled `<name>Arguments`. */
  inputSchema: JsonSchema;
  /** Absent when the tool is text-only (`structuredOutput: false`, `any`, no annotation, ...). */
  outputSchema?: JsonSchema;
  /** True when results travel as `{"result": value}` (scalars, arrays, unions, numeric-keyed records). */
  wrapped?: boolean;
  /** Where the arguments hold Dates; absent when they hold none (most tools). */
  dates?: DatePlan;
}

/** One argument of a prompt, or one variable of a URI template, as `prompts/list` publishes it. */
export interface StringArgument {
  name: string;
  /** The parameter's `@param` text. */
  description?: string;
  required: boolean;
}

/**
 * Prompt arguments and URI template variables: strings on the wire, typed in the function.
 * The runtime converts each from its text where the type says so, then validates all of them
 * against `argumentsSchema`, as it validates a tool's arguments.
 */
export interface StringArguments {
  /** One per parameter that takes an argument, in declaration order. */
  arguments: StringArgument[];
  /**
   * The arguments after conversion, as a tool's input schema is written: root
   * `{"type": "object", ...}` with `additionalProperties: false`, titled `<name>Arguments`.
   */
  argumentsSchema: JsonSchema;
  /**
   * The arguments whose type is a number or a boolean (or, for an exploded template variable,
   * a list of them): their text is converted before validation (`"3"` → 3, `"true"` → true).
   * Text that is not a number or a boolean is left as it is, and validation says why.
   */
  convert?: Record<string, "number" | "boolean">;
  /**
   * The values an argument can take, where its type is a finite set of literals (a union of
   * string literals, an enum, `boolean`), as text in declaration order: `completion/complete`
   * offers them with no code.
   */
  completions?: Record<string, string[]>;
}

export interface PromptContract extends FunctionContract, StringArguments {
  kind: "prompt";
}

/**
 * How a resource's function answers `resources/read`, decided by its declared return type
 * (`Promise<T>` unwrapped):
 * - `text`: a string, sent as text (`mimeType` default `text/plain`);
 * - `blob`: bytes (`Uint8Array`, `Buffer`), sent base64-encoded (default `application/octet-stream`);
 * - `json`: any other described type, validated against `outputSchema` and sent as its JSON
 *   text (`application/json`);
 * - `contents`: resource contents (`TextResourceContents`, `BlobResourceContents`, or a list
 *   of them), sent as they are;
 * - `auto`: a return type that says nothing of the value (`any`, `unknown`, none declared):
 *   a string is text, bytes a blob, contents as they are, anything else JSON, unvalidated.
 */
export type ResourceContents = "text" | "blob" | "json" | "contents" | "auto";

export interface ResourceContract extends FunctionContract, StringArguments {
  kind: "resource";
  /** The URI, or the RFC 6570 URI template whose variables are `arguments`, as the registration wrote it. */
  uri: string;
  /** True when `uri` is a template (it has variables, possibly none the function takes). */
  template?: boolean;
  contents: ResourceContents;
  /** For `json` contents: the return type's schema (any root, titled with the type's name), as a tool's result is checked. */
  outputSchema?: JsonSchema;
}

/**
 * What the transformer adds to a `ctx.elicit<T>(message, options?)` call, as its third argument
 * (`options` written as `undefined` when the call has none): the form written from `T`.
 */
export interface FormContract {
  /** Contract version, see CONTRACT_VERSION. */
  v: number;
  /** `T` as the code names it (`Booking`): messages about an answer name it. */
  name: string;
  /**
   * The `requestedSchema` sent to the client: the protocol's restricted form, a flat
   * `{"type": "object", "properties": ..., "required": [...]}` whose properties are strings
   * (with `format`, `minLength`, `maxLength`), numbers or integers (`minimum`, `maximum`),
   * booleans, single-select enums (`enum`, or `oneOf` of `{const, title}`, or `enum` with
   * `enumNames`) and multi-select enums (`type: "array"` of those), each with `title`,
   * `description` and `default` where the type says them. `required` is always written (`[]`
   * when every field is optional).
   */
  requestedSchema: JsonSchema;
  /**
   * Set when the build reported an error for this form (`T` is not one: TS93006); the
   * `requestedSchema` is then an object with no fields, and `name` what could be read of `T`
   * (empty when nothing could). The runtime must refuse to ask with it, with this message:
   * never a form other than the one `T` describes.
   */
  error?: string;
}

/** Any registration's contract. */
export type Contract = ToolContract | PromptContract | ResourceContract;

/**
 * What `typemcp manifest` writes: every registration's contract, by kind, keyed by tool name,
 * prompt name, and resource URI (or template) as written.
 */
export interface Manifest {
  tools: Record<string, ToolContract>;
  prompts: Record<string, PromptContract>;
  resources: Record<string, ResourceContract>;
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
