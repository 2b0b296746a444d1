import type { CallToolResult, Server, ServerContext, Tool, ToolAnnotations } from "@modelcontextprotocol/server";
import { toContent } from "./content";
import { toolContext } from "./context";
import type { JsonSchema, ToolContract } from "./contract";
import { ANY, checkerOf, type Checker, WireError } from "./check";
import { DateError, dateReviver } from "./dates";
import type { CallSite, ToolFault } from "./faults";
import { shortText, validationMessage } from "./messages";

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
}

// Any function: a tool's parameters are whatever its author declared.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ToolFunction = (...args: any[]) => unknown;

const MAX_MESSAGE = 4000;

const hasOwn = Object.prototype.hasOwnProperty;

export function errorResult(toolName: string, message: string): CallToolResult {
  const text = `Error executing tool ${toolName}: ${message}`;
  return {
    content: [{ type: "text", text: text.length > MAX_MESSAGE ? `${text.slice(0, MAX_MESSAGE)}… (truncated)` : text }],
    isError: true,
  };
}

const UNREADABLE = "the tool threw an exception that cannot be read";

/**
 * What a tool threw, as a message. Never throws itself: a tool may throw anything (a revoked
 * Proxy, an Error whose message is a Symbol or whose getter throws), and the call must still
 * be answered.
 */
function errorMessage(error: unknown): string {
  try {
    if (typeof error === "string") return error;
    if (!(error instanceof Error)) return shortText(error, UNREADABLE);
    let message: unknown;
    try {
      message = error.message;
    } catch {
      const name = error.name;
      return typeof name === "string" && name ? `${name} (its message cannot be read)` : UNREADABLE;
    }
    if (typeof message === "string") return message || String(error.name);
    return shortText(message, UNREADABLE);
  } catch {
    return UNREADABLE;
  }
}

/** Why valid arguments could not be given their Dates. */
function unreadable(error: unknown): string {
  // Revived as deep as they were checked: arguments nested deeper than the stack are refused, not a crash.
  if (error instanceof RangeError) return "the arguments are nested too deeply";
  return `the arguments could not be read: ${error instanceof DateError ? error.describe() : errorMessage(error)}`;
}

/** A schema retitled for a tool registered under another name than the one it was compiled for. */
function retitled(schema: JsonSchema, from: string, to: string): JsonSchema {
  if (from === to || typeof schema.title !== "string" || !schema.title.startsWith(from)) return schema;
  const suffix = schema.title.slice(from.length);
  return ["Arguments", "Output", "DictOutput"].includes(suffix) ? { ...schema, title: to + suffix } : schema;
}

/** The errors a tool's timeout makes: the clock's, not a fault of the tool's code. */
const timeouts = new WeakSet<object>();

/** What the server gives a tool beyond its contract: where it was registered, and where its faults are reported. */
export interface ToolHooks {
  site?: CallSite;
  report?: (tool: string, site: CallSite | undefined, fault: ToolFault) => void;
}

/** One registered tool: its published definition, and the call pipeline of DESIGN §2–§5. */
export class RegisteredTool {
  readonly name: string;
  readonly definition: Tool;
  private readonly params: string[];
  private readonly argumentsObject: boolean;
  private readonly contextAt?: number;
  private readonly timeout?: number;
  private readonly wrapped: boolean;
  /** Gives the arguments their Dates, for a tool whose parameters hold any (see runtime/dates.ts). */
  private readonly dates?: (args: Record<string, unknown>) => Record<string, unknown>;
  /** Compiled on the tool's first call (a server with many tools starts without them), shared by tools of the same schemas. */
  private checkers?: { input: Checker; output?: Checker };

  constructor(
    private readonly fn: ToolFunction,
    options: ToolOptions,
    contract: ToolContract,
    private readonly hooks: ToolHooks = {},
  ) {
    this.name = options.name ?? contract.name;
    this.params = contract.params;
    this.argumentsObject = contract.argumentsObject === true;
    this.contextAt = contract.context;
    this.timeout = options.timeout;
    const inputSchema = retitled(contract.inputSchema, contract.name, this.name);
    const outputSchema =
      options.structuredOutput === false || !contract.outputSchema
        ? undefined
        : retitled(contract.outputSchema, contract.name, this.name);
    this.wrapped = outputSchema !== undefined && contract.wrapped === true;
    if (contract.dates) {
      try {
        this.dates = dateReviver(contract.dates);
      } catch (error) {
        throw new Error(`typemcp: tool ${JSON.stringify(this.name)}: ${errorMessage(error)}`, { cause: error });
      }
    }

    const definition: Tool = { name: this.name, inputSchema: inputSchema as Tool["inputSchema"] };
    if (options.title !== undefined) definition.title = options.title;
    const description = options.description ?? contract.description;
    if (description !== undefined) definition.description = description;
    if (outputSchema) definition.outputSchema = outputSchema as Tool["outputSchema"];
    if (options.annotations) definition.annotations = options.annotations;
    this.definition = definition;
  }

  private get compiled(): { input: Checker; output?: Checker } {
    return (this.checkers ??= {
      input: checkerOf(this.definition.inputSchema),
      output: this.definition.outputSchema && checkerOf(this.definition.outputSchema),
    });
  }

  /** Makes the tool's checkers now rather than on its first call (a schema they cannot be made of fails that call, with the reason). */
  prepare(): void {
    try {
      void this.compiled;
    } catch {
      // the call says why
    }
  }

  /**
   * Runs one `tools/call`. Never throws, never rejects: every failure is an `isError` result
   * that says what went wrong. `ctx` is the SDK's for the request (its signal is aborted
   * when the client cancels); with `session` it makes the ToolContext of a tool that takes one.
   *
   * A synchronous tool is answered synchronously, an async one with a promise: the path
   * most calls take has no promise turns of its own.
   */
  call(args: Record<string, unknown>, ctx: ServerContext, session: Server): CallToolResult | Promise<CallToolResult> {
    const invalid = this.checkArguments(args);
    if (invalid) return errorResult(this.name, invalid);
    let given = args;
    if (this.dates) {
      try {
        given = this.dates(args);
      } catch (error) {
        return errorResult(this.name, unreadable(error));
      }
    }
    let value: unknown;
    try {
      value = this.invoke(given, ctx, session);
      if (value !== null && typeof (value as { then?: unknown })?.then === "function") {
        return Promise.resolve(value).then(
          (settled) => this.answer(settled),
          (error: unknown) => this.threw(error),
        );
      }
    } catch (error) {
      return this.threw(error);
    }
    return this.answer(value);
  }

  /** Where the tool was registered, when known. */
  get site(): CallSite | undefined {
    return this.hooks.site;
  }

  /** The answer to an exception from the tool's code (reported as a fault of the tool, unless its timeout made it). */
  private threw(error: unknown): CallToolResult {
    const message = errorMessage(error);
    if (!(error !== null && (typeof error === "object" || typeof error === "function") && timeouts.has(error)))
      this.fault({ kind: "threw", error, message });
    return errorResult(this.name, message);
  }

  private fault(fault: ToolFault): void {
    this.hooks.report?.(this.name, this.hooks.site, fault);
  }

  /** Undefined when the arguments are valid, else the message that says why not. */
  private checkArguments(args: Record<string, unknown>): string | undefined {
    let found;
    try {
      found = this.compiled.input.check(args);
    } catch (error) {
      // The check recurses with the data: arguments nested deeper than the stack are refused, not a crash.
      if (error instanceof RangeError) return "the arguments are nested too deeply";
      // A schema that cannot be compiled (a keyword or format typemcp does not check): refused, with the reason.
      return `the arguments could not be validated: ${errorMessage(error)}`;
    }
    return found.total === 0 ? undefined : validationMessage(String(this.definition.inputSchema.title), found);
  }

  /** Calls the function with its arguments in place, within the tool's timeout if it has one. */
  private invoke(args: Record<string, unknown>, ctx: ServerContext, session: Server): unknown {
    // An argument left out is undefined, whatever Object.prototype holds under its name.
    let positional: unknown[];
    if (this.argumentsObject) positional = [args];
    else {
      const { params } = this;
      positional = new Array(params.length);
      for (let i = 0; i < params.length; i++)
        positional[i] = hasOwn.call(args, params[i]) ? args[params[i]] : undefined;
    }
    if (this.timeout === undefined) {
      if (this.contextAt !== undefined)
        positional.splice(this.contextAt, 0, toolContext(session, this.name, ctx, ctx.mcpReq.signal));
      return this.fn.apply(undefined, positional);
    }
    return this.invokeWithin(this.timeout, positional, ctx, session);
  }

  /** The call raced against the tool's timeout: a timed-out call aborts the tool's signal. */
  private async invokeWithin(ms: number, positional: unknown[], ctx: ServerContext, session: Server): Promise<unknown> {
    // Aborting lets the tool stop and free what it holds.
    const timer = new AbortController();
    if (this.contextAt !== undefined)
      positional.splice(
        this.contextAt,
        0,
        toolContext(session, this.name, ctx, AbortSignal.any([ctx.mcpReq.signal, timer.signal])),
      );
    let timeout: NodeJS.Timeout | undefined;
    const expired = new Promise<never>((_, reject) => {
      timeout = setTimeout(() => {
        const error = new Error(`timed out after ${ms} ms`);
        timeouts.add(error);
        reject(error); // first: a tool that stops on the abort below must not win the race
        timer.abort(error);
      }, ms);
    });
    try {
      return await Promise.race([this.fn(...positional), expired]);
    } finally {
      clearTimeout(timeout);
    }
  }

  /** The result on both channels, or an `isError` result when it breaks its schema or cannot be JSON. */
  private answer(value: unknown): CallToolResult {
    try {
      const { output } = this.compiled;
      if (!output) return { content: toContent(ANY.project(value).value, true) };
      const projected = output.project(this.wrapped ? { result: value === undefined ? null : value } : value);
      if (projected.total > 0) {
        const message = validationMessage(String(this.definition.outputSchema!.title), projected);
        this.fault({ kind: "invalid result", message, issues: projected.issues });
        return errorResult(this.name, message);
      }
      const wire = projected.value as Record<string, unknown>;
      return { content: toContent(this.wrapped ? wire.result : wire), structuredContent: wire };
    } catch (error) {
      let kind: "wire" | "depth" | undefined;
      try {
        kind = error instanceof WireError ? "wire" : error instanceof RangeError ? "depth" : undefined;
      } catch {
        // a revoked Proxy thrown by the result's toJSON(): the tool's exception
      }
      if (kind === "wire") return this.unsendable((error as WireError).describe(this.wrapped ? "" : "result"));
      if (kind === "depth") return this.unsendable("the result is nested too deeply to be sent", "");
      return this.threw(error); // a toJSON() or a getter of the result threw
    }
  }

  private unsendable(where: string, prefix = "the result cannot be sent as JSON: "): CallToolResult {
    this.fault({ kind: "unsendable result", message: where });
    return errorResult(this.name, prefix + where);
  }
}
