import type { CallToolResult, Server, ServerContext, Tool, ToolAnnotations } from "@modelcontextprotocol/server";
import { isInputRequiredResult } from "@modelcontextprotocol/server";
import { type AnyFunction, type Asked, type Hooks, RegisteredFunction, retitled } from "./call/function";
import { WireError } from "./validation/issues";
import { ANY, type Validator, validatorOf } from "./validation/validator";
import { errorMessage } from "./call/thrown";
import { toContent } from "./content";
import type { JsonSchema, ToolContract } from "../contract/contract";
import { dateReviver } from "./dates";
import type { Who } from "./faults";
import { validationMessage } from "./validation/messages";

/** What `mcp.tool(fn, options)` accepts besides the function. */
export interface ToolOptions {
  /** The tool's name; default: the function's name. */
  name?: string;
  /** A human-readable display name. */
  title?: string;
  /** Default: the function's JSDoc comment. */
  description?: string;
  /** MCP tool annotations (hints such as `readOnlyHint`). */
  annotations?: ToolAnnotations;
  /**
   * Omitted: structured output whenever the return type can be described.
   * `false`: text only (no output schema, no wrapping, no validation).
   * `true`: a return type that cannot be described is a compile error.
   */
  structuredOutput?: boolean;
  /**
   * Milliseconds a call may take. A call still running then answers `isError` ("timed out"),
   * and its ToolContext's signal is aborted so the tool can stop.
   */
  timeout?: number;
  /**
   * OAuth scopes a call needs, over HTTP with `auth`: a token without them gets 403
   * `insufficient_scope` naming them, and the client may ask for a token that has them. The
   * tool stays in `tools/list` for everyone (docs/deployment.md#authentication).
   */
  scopes?: string[];
}

/** A tool: any function. */
export type ToolFunction = AnyFunction;

const MAX_MESSAGE = 4000;

export function errorResult(toolName: string, message: string): CallToolResult {
  const text = `Error executing tool ${toolName}: ${message}`;
  return {
    content: [{ type: "text", text: text.length > MAX_MESSAGE ? `${text.slice(0, MAX_MESSAGE)}… (truncated)` : text }],
    isError: true,
  };
}

/** What the server's options change in a tool's answers. */
export interface ToolSettings {
  /** `native`: results in their own shape on 2026-07-28 (see ServerOptions.resultShape). */
  resultShape?: "wrapped" | "native";
}

/**
 * The natural schema of a wrapped output schema: `result`'s, titled as the wrapper was, with
 * the wrapper's `$defs` (whose references stay `#/$defs/...` from the root).
 */
function unwrapped(schema: JsonSchema): JsonSchema {
  const result = (schema.properties as Record<string, JsonSchema>).result;
  const natural: JsonSchema = { ...result, title: schema.title };
  if (schema.$defs !== undefined) natural.$defs = schema.$defs;
  return natural;
}

/** One registered tool: its published definition, and the steps of a call (RegisteredFunction) with a tool's answers. */
export class RegisteredTool extends RegisteredFunction<CallToolResult> {
  readonly name: string;
  readonly who: Who;
  readonly definition: Tool;
  /** The result travels as `{"result": value}` (typemcp's default shape for a non-object type). */
  private readonly wrapped: boolean;
  /** The result travels in its own shape, which the SDK wraps for 2025-11-25 clients (resultShape: "native"). */
  private readonly native: boolean;
  private outputValidator?: Validator;

  constructor(
    fn: ToolFunction,
    options: ToolOptions,
    contract: ToolContract,
    hooks: Hooks = {},
    settings: ToolSettings = {},
  ) {
    const name = options.name ?? contract.name;
    const inputSchema = retitled(contract.inputSchema, contract.name, name);
    super(fn, contract, inputSchema, hooks, options.timeout);
    this.name = name;
    this.who = { kind: "tool", name };
    let outputSchema =
      options.structuredOutput === false || !contract.outputSchema
        ? undefined
        : retitled(contract.outputSchema, contract.name, name);
    this.wrapped = outputSchema !== undefined && contract.wrapped === true;
    this.native = this.wrapped && settings.resultShape === "native";
    if (contract.dates) {
      try {
        this.revive = dateReviver(contract.dates);
      } catch (error) {
        throw new Error(`typemcp: tool ${JSON.stringify(name)}: ${errorMessage(error)}`, { cause: error });
      }
    }
    if (this.native) {
      outputSchema = unwrapped(outputSchema!);
      this.wrapped = false;
    }

    const definition: Tool = { name, inputSchema: inputSchema as Tool["inputSchema"] };
    if (options.title !== undefined) definition.title = options.title;
    const description = options.description ?? contract.description;
    if (description !== undefined) definition.description = description;
    if (outputSchema) definition.outputSchema = outputSchema as Tool["outputSchema"];
    if (options.annotations) definition.annotations = options.annotations;
    this.definition = definition;
  }

  protected override validators(): void {
    super.validators();
    if (this.definition.outputSchema) this.outputValidator ??= validatorOf(this.definition.outputSchema);
  }

  /**
   * Runs one `tools/call`. Never throws, never rejects: every failure is an `isError` result
   * that says what went wrong. `ctx` is the SDK's for the request (its signal is aborted when
   * the client cancels); `session` the server instance it came on.
   */
  call(
    args: Record<string, unknown>,
    ctx: ServerContext,
    session: Server,
  ): Asked<CallToolResult> | Promise<Asked<CallToolResult>> {
    const answer = this.serve(args, { ctx, session });
    if (!this.native) return answer;
    // The SDK's projection: the result as it is for 2026-07-28 clients, wrapped as {"result": …} for 2025-11-25 ones.
    const schema = this.definition.outputSchema;
    const projected = (result: Asked<CallToolResult>) =>
      isInputRequiredResult(result) ? result : session.projectCallToolResult(result, schema);
    return answer instanceof Promise ? answer.then(projected) : projected(answer);
  }

  protected refuse(message: string): CallToolResult {
    return errorResult(this.name, message);
  }

  /** The result on both channels, or an `isError` result when it breaks its schema or cannot be JSON. */
  protected answer(value: unknown): CallToolResult {
    try {
      this.validators();
      const output = this.outputValidator;
      if (!output) return { content: toContent(ANY.wireCopy(value).value, true) };
      // undefined (a void tool) is null on the wire, as JSON has it in an array.
      const sent = value === undefined && (this.wrapped || this.native) ? null : value;
      const projected = output.wireCopy(this.wrapped ? { result: sent } : sent);
      if (projected.total > 0) {
        const message = validationMessage(String(this.definition.outputSchema!.title), projected);
        this.fault({ kind: "invalid result", message, issues: projected.issues });
        return this.refuse(message);
      }
      const wire = projected.value as Record<string, unknown>;
      return {
        content: toContent(this.wrapped ? wire.result : wire),
        structuredContent: wire as CallToolResult["structuredContent"],
      };
    } catch (error) {
      let kind: "wire" | "depth" | undefined;
      try {
        kind = error instanceof WireError ? "wire" : error instanceof RangeError ? "depth" : undefined;
      } catch {
        // a revoked Proxy thrown by the result's toJSON(): the tool's exception
      }
      if (kind === "wire")
        return this.unsendable(
          (error as WireError).describe(this.wrapped ? "" : "result"),
          undefined,
          error as WireError,
        );
      if (kind === "depth") return this.unsendable("the result is nested too deeply to be sent", "");
      return this.threw(error); // a toJSON() or a getter of the result threw
    }
  }

  private unsendable(where: string, prefix = "the result cannot be sent as JSON: ", at?: WireError): CallToolResult {
    this.fault({ kind: "unsendable result", message: where, at });
    return this.refuse(prefix + where);
  }
}
