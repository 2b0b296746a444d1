import {
  isInputRequiredResult,
  PROTOCOL_VERSION_META_KEY,
  ProtocolError,
  ProtocolErrorCode,
  UriTemplate,
  type CompleteResult,
  type ReadResourceResult,
  type Resource,
  type ResourceTemplateType,
  type Server,
  type ServerContext,
} from "@modelcontextprotocol/server";
import { type Asked, type Hooks, RegisteredFunction, retitled } from "./call/function";
import { convertText } from "./call/text-arguments";
import { WireError } from "./validation/issues";
import { ANY, type Validator, validatorOf } from "./validation/validator";
import { completeArgument, completionsOf, type Completion } from "./completion";
import type { ResourceContract, ResourceContents as ContentsKind } from "../contract/contract";
import type { Who } from "./faults";
import type { CacheHint, ResourceFunction, ResourceListing, ResourceOptions } from "./kinds";
import { jsonWriterOf, type JsonWriter } from "./validation/json-text";
import { validationMessage } from "./validation/messages";

/** The MIME type of contents whose resource does not name one, by what the function returns. */
const DEFAULT_MIME: Record<"text" | "blob" | "json", string> = {
  text: "text/plain",
  blob: "application/octet-stream",
  json: "application/json",
};

type Contents = ReadResourceResult["contents"][number];

function isContents(value: unknown): value is Contents {
  if (value === null || typeof value !== "object") return false;
  const { uri, text, blob } = value as Record<string, unknown>;
  return typeof uri === "string" && (typeof text === "string" || typeof blob === "string");
}

function base64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64");
}

/** decodeURIComponent, which gives text without a `%` back as it is: not called for it (most variables). */
const decode = (text: string): string => (text.includes("%") ? decodeURIComponent(text) : text);

/**
 * A URI template's variables as the SDK's matcher gives them (percent-encoded, a list for an
 * exploded variable of several items), decoded, a list where the parameter takes one (`lists`);
 * undefined when one is not valid percent-encoding.
 */
function decoded(
  variables: Record<string, string | string[]>,
  lists: ReadonlySet<string>,
): Record<string, unknown> | undefined {
  const args: Record<string, unknown> = {};
  try {
    for (const name of Object.keys(variables)) {
      const value = variables[name];
      // The matcher gives an exploded variable of one item as that item, not a list of it.
      const items = Array.isArray(value) ? value : lists.has(name) ? [value] : undefined;
      args[name] = items ? items.map(decode) : decode(value as string);
    }
  } catch {
    return undefined;
  }
  return args;
}

/**
 * One registered resource, at a fixed URI or a URI template: its entry in `resources/list` or
 * `resources/templates/list`, and `resources/read` through the steps every request takes (the
 * template's variables are its arguments, converted and checked as a prompt's are).
 */
export class RegisteredResource extends RegisteredFunction<ReadResourceResult> {
  readonly name: string;
  readonly who: Who;
  /** The URI or the URI template, as registered. */
  readonly uri: string;
  /** Set for a template: the SDK's matcher. */
  readonly template?: UriTemplate;
  /** The URI template's text before its first variable (the whole URI for a fixed resource): every URI it matches begins with it. */
  readonly literalPrefix: string;
  private readonly contents: ContentsKind;
  private readonly outputSchema?: ResourceContract["outputSchema"];
  private outputValidator?: Validator;
  /** Checks and writes a JSON resource's value in one walk, where its schema allows (runtime/validation/json-text.ts). */
  private writer?: JsonWriter;
  private readonly mimeType?: string;
  private readonly convert: ResourceContract["convert"];
  private readonly completions: Map<string, Completion>;
  private readonly arguments: ResourceContract["arguments"];
  /** The variables whose parameter takes a list (an exploded variable). */
  private readonly lists: ReadonlySet<string>;
  private readonly cache?: CacheHint;
  /** For a template: its instances, for `resources/list`. */
  readonly list?: () => readonly ResourceListing[] | Promise<readonly ResourceListing[]>;
  private readonly metadata: Omit<Resource, "uri" | "name">;
  /** A fixed resource's arguments (`{}` on every read) passed their check: known once, not checked on every read. */
  private noArgumentsValid?: boolean;

  constructor(
    uri: string,
    fn: ResourceFunction,
    options: ResourceOptions,
    contract: ResourceContract,
    hooks: Hooks = {},
  ) {
    const name = options.name ?? contract.name;
    super(fn, contract, retitled(contract.argumentsSchema, contract.name, name), hooks);
    this.name = name;
    this.uri = uri;
    this.who = { kind: "resource", name: uri };
    if (contract.template) this.template = new UriTemplate(uri);
    const variable = uri.indexOf("{");
    this.literalPrefix = variable === -1 ? uri : uri.slice(0, variable);
    this.contents = contract.contents;
    this.outputSchema = contract.outputSchema;
    this.mimeType = options.mimeType;
    this.convert = contract.convert;
    this.arguments = contract.arguments;
    const properties = (contract.argumentsSchema.properties ?? {}) as Record<string, { type?: unknown }>;
    this.lists = new Set(Object.keys(properties).filter((name) => properties[name].type === "array"));
    this.cache = options.cache;
    if (options.list !== undefined) {
      if (!this.template) throw new TypeError(`typemcp: resource ${uri}: only a URI template lists resources (list)`);
      if (typeof options.list !== "function") throw new TypeError(`typemcp: resource ${uri}: list must be a function`);
      this.list = options.list;
    }
    this.completions = completionsOf(contract, options.complete, uri);
    const metadata: Omit<Resource, "uri" | "name"> = {};
    if (options.title !== undefined) metadata.title = options.title;
    const description = options.description ?? contract.description;
    if (description !== undefined) metadata.description = description;
    const mimeType =
      options.mimeType ?? (this.contents in DEFAULT_MIME ? DEFAULT_MIME[this.contents as "text"] : undefined);
    if (mimeType !== undefined) metadata.mimeType = mimeType;
    if (options.annotations) metadata.annotations = options.annotations;
    if (options.icons) metadata.icons = options.icons;
    if (options.size !== undefined) metadata.size = options.size;
    this.metadata = metadata;
  }

  /** The resource's entry in `resources/list` (a fixed URI). */
  get listing(): Resource {
    return { uri: this.uri, name: this.name, ...this.metadata };
  }

  /** The template's entry in `resources/templates/list`. */
  get templateListing(): ResourceTemplateType {
    const { size: _size, ...metadata } = this.metadata;
    return { uriTemplate: this.uri, name: this.name, ...metadata };
  }

  /** The template's instances, for `resources/list`, each with the template's metadata under its own. */
  async instances(): Promise<Resource[]> {
    const listed = this.list ? await this.list() : [];
    const { size: _size, ...metadata } = this.metadata;
    return listed.map((resource) => ({ ...metadata, ...resource }));
  }

  protected override validators(): void {
    super.validators();
    if (this.outputSchema && !this.outputValidator) {
      this.outputValidator = validatorOf(this.outputSchema);
      this.writer = jsonWriterOf(this.outputSchema);
    }
  }

  /**
   * Runs one `resources/read` of `uri`: for a template, its variables (`variables`, from the
   * SDK's matcher) decoded, converted where the types say so, and checked.
   */
  read(
    uri: string,
    variables: Record<string, string | string[]> | undefined,
    ctx: ServerContext,
    session: Server,
  ): Asked<ReadResourceResult> | Promise<Asked<ReadResourceResult>> {
    let answer;
    if (variables) {
      const args = decoded(variables, this.lists);
      if (!args) return this.refuse("a variable of the URI is not valid percent-encoding", "arguments");
      answer = this.serve(convertText(args, this.convert, true), { ctx, session });
    } else {
      // A fixed URI has no variables: the same empty arguments on every read, whose check is the same every time.
      this.noArgumentsValid ??= this.checkArguments({}) === undefined;
      answer = this.noArgumentsValid ? this.serveChecked({}, { ctx, session }) : this.serve({}, { ctx, session });
    }
    if (answer instanceof Promise) return answer.then((result) => this.finished(result, uri, ctx));
    return this.finished(answer, uri, ctx);
  }

  private finished(result: Asked<ReadResourceResult>, uri: string, ctx: ServerContext): Asked<ReadResourceResult> {
    return isInputRequiredResult(result) ? result : this.cached(result, uri, ctx);
  }

  /** `completion/complete` for one of the template's variables. */
  complete(argument: string, value: string, context: { arguments: Record<string, string> }): Promise<CompleteResult> {
    return completeArgument(this.completions, this.arguments, this.who, argument, value, context);
  }

  /** The contents' URI (the one read) is set here, and the cache hint for a 2026-07-28 client. */
  private cached(result: ReadResourceResult, uri: string, ctx: ServerContext): ReadResourceResult {
    for (const contents of result.contents) if (contents.uri === "") contents.uri = uri;
    // 2025-11-25 answers carry no cache fields: the hint goes only on a request with the 2026-07-28 envelope.
    if (this.cache && (ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.[PROTOCOL_VERSION_META_KEY]) {
      const hinted = result as ReadResourceResult & CacheHint;
      if (this.cache.ttlMs !== undefined) hinted.ttlMs = this.cache.ttlMs;
      if (this.cache.cacheScope !== undefined) hinted.cacheScope = this.cache.cacheScope;
    }
    return result;
  }

  /** A refused request is a JSON-RPC error: invalid arguments are the client's (-32602), anything else the server's (-32603). */
  protected refuse(message: string, step: "arguments" | "result"): never {
    if (step === "arguments")
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid URI for resource ${this.uri}: ${message}`);
    throw new ProtocolError(ProtocolErrorCode.InternalError, `Error reading resource ${this.uri}: ${message}`);
  }

  protected override threw(error: unknown): ReadResourceResult {
    // A protocol error thrown on purpose (ResourceNotFoundError for an id that does not exist) is the answer.
    if (error instanceof ProtocolError) throw error;
    return super.threw(error);
  }

  /** The function's value as contents, by what its declared return type says it is (ResourceContract.contents). */
  protected answer(value: unknown): ReadResourceResult {
    // The URI read is filled in by `cached`, which knows it.
    const uri = "";
    switch (this.contents) {
      case "text":
        if (typeof value === "string") return { contents: [{ uri, mimeType: this.mime("text"), text: value }] };
        return this.wrong(value, "a string");
      case "blob":
        if (value instanceof Uint8Array)
          return { contents: [{ uri, mimeType: this.mime("blob"), blob: base64(value) }] };
        return this.wrong(value, "bytes (a Uint8Array)");
      case "contents":
        return (
          this.asContents(value) ??
          this.wrong(value, "resource contents ({ uri, text } or { uri, blob }, or a list of them)")
        );
      case "json":
        return this.json(value, this.outputValidator!, this.writer);
      case "auto":
        if (typeof value === "string") return { contents: [{ uri, mimeType: this.mime("text"), text: value }] };
        if (value instanceof Uint8Array)
          return { contents: [{ uri, mimeType: this.mime("blob"), blob: base64(value) }] };
        return this.asContents(value) ?? this.json(value, ANY);
    }
  }

  private mime(kind: "text" | "blob" | "json"): string {
    return this.mimeType ?? DEFAULT_MIME[kind];
  }

  private asContents(value: unknown): ReadResourceResult | undefined {
    if (isContents(value)) return { contents: [value] };
    if (Array.isArray(value) && value.length > 0 && value.every(isContents)) return { contents: value };
    return undefined;
  }

  /** Data as its JSON text, copied onto its schema and checked as a tool's result is. */
  private json(value: unknown, validator: Validator, writer?: JsonWriter): ReadResourceResult {
    let text: string | undefined;
    if (writer) {
      try {
        text = writer(value === undefined ? null : value);
      } catch {
        // A getter that threw, a stack too deep: the wire copy below meets it too, and says so as it always has.
      }
      if (text !== undefined) return { contents: [{ uri: "", mimeType: this.mime("json"), text }] };
    }
    try {
      const projected = validator.wireCopy(value === undefined ? null : value);
      if (projected.total > 0) {
        const message = validationMessage(String(this.outputSchema?.title ?? this.name), projected);
        this.fault({ kind: "invalid result", message, issues: projected.issues });
        return this.refuse(message, "result");
      }
      text = JSON.stringify(projected.value, null, 2);
    } catch (error) {
      if (error instanceof ProtocolError) throw error;
      if (error instanceof WireError) {
        const where = error.describe("contents");
        this.fault({ kind: "unsendable result", message: where, at: error });
        return this.refuse(`the contents cannot be sent as JSON: ${where}`, "result");
      }
      if (error instanceof RangeError) return this.refuse("the contents are nested too deeply to be sent", "result");
      return this.threw(error);
    }
    return { contents: [{ uri: "", mimeType: this.mime("json"), text }] };
  }

  private wrong(got: unknown, expected: string): never {
    const message = `the function returned ${kindOf(got)}, where its declared type says ${expected}`;
    this.fault({ kind: "unsendable result", message });
    return this.refuse(message, "result");
  }
}

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  const type = typeof value;
  return type === "object" ? "an object" : type === "undefined" ? "undefined" : `a ${type}`;
}
