import type { InputRequiredResult, Server, ServerContext } from "@modelcontextprotocol/server";
import { Asking, type Round } from "../ask/asking";
import { digest, RequestStates } from "../ask/state";
import { type Validator, validatorOf } from "../validation/validator";
import { toolContext } from "../context";
import type { JsonSchema } from "../../contract/contract";
import type { CallSite, Fault, Who } from "../faults";
import { validationMessage } from "../validation/messages";
import { DateError } from "../dates";
import { errorMessage, isThenable } from "./thrown";

/** A function as registered: its parameters are whatever its author declared. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyFunction = (...args: any[]) => unknown;

/** One request to a registered function: the SDK's context for it, and the server instance it came on. */
export interface Request {
  readonly ctx: ServerContext;
  readonly session: Server;
}

/** What the server gives a registration beyond its contract: where it was registered, and where its faults are reported. */
export interface Hooks {
  site?: CallSite;
  report?: (who: Who, site: CallSite | undefined, fault: Fault) => void;
  /** Signs and checks the state of requests that asked the client something (the MCPServer's). */
  states?: RequestStates;
}

/** The states of functions registered without an MCPServer's (tests that build one directly). */
let ownStates: RequestStates | undefined;

/** How a function takes its arguments, from its contract. */
export interface Parameters {
  /** Argument names in declaration order. */
  params: readonly string[];
  /** One destructured object: the arguments object itself is passed. */
  argumentsObject?: boolean;
  /** Where a `ToolContext` parameter is. */
  context?: number;
}

/** What a request that asked the client something is answered with, in place of its kind's answer. */
export type Asked<Answer> = Answer | InputRequiredResult;

/** The errors a timeout makes: the clock's, not a fault of the function's code. */
const timeouts = new WeakSet<object>();

const hasOwn = Object.prototype.hasOwnProperty;

/** A schema retitled for a registration made under another name than the one it was compiled for (`<name>Arguments`, ...). */
export function retitled(schema: JsonSchema, from: string, to: string): JsonSchema {
  if (from === to || typeof schema.title !== "string" || !schema.title.startsWith(from)) return schema;
  const suffix = schema.title.slice(from.length);
  return ["Arguments", "Output", "DictOutput"].includes(suffix) ? { ...schema, title: to + suffix } : schema;
}

/**
 * A registered function of any kind (tool, prompt, resource) and the steps every request to it
 * takes, in this order:
 *
 *   1. `checkArguments`: the arguments against the contract's schema, with the validator that
 *      checks every value in typemcp (runtime/validation/), then given their Dates where the
 *      parameters hold any (`revive`, runtime/dates.ts);
 *   2. `invoke`: the function called with them in place (positionally, or as one object), the
 *      request's context where it takes one, within its timeout if it has one;
 *   3. `answer`: its value checked and put in the kind's answer.
 *
 * Each kind says how it refuses (`refuse`: a tool answers `isError`, a prompt or a resource a
 * JSON-RPC error) and how it answers. A synchronous function is answered synchronously, with
 * no promise turn of its own: the path most tool calls take.
 */
export abstract class RegisteredFunction<Answer> {
  /** What the registration is, as messages and the fault log name it. */
  abstract readonly who: Who;
  /** Made on the first request (a server with many registrations starts without them), shared by equal schemas. */
  private argumentsValidator?: Validator;
  /** Gives the valid arguments their Dates, where the parameters hold any (runtime/dates.ts). */
  protected revive?: (args: Record<string, unknown>) => Record<string, unknown>;

  constructor(
    private readonly fn: AnyFunction,
    private readonly parameters: Parameters,
    /** The schema the arguments are checked against (a tool's input schema, a prompt's or template's arguments). */
    protected readonly argumentsSchema: JsonSchema,
    private readonly hooks: Hooks,
    private readonly timeout?: number,
  ) {}

  /** Where the registration was made, when known. */
  get site(): CallSite | undefined {
    return this.hooks.site;
  }

  /** Makes the validators now rather than on the first request (a schema they cannot be made of fails that request, with the reason). */
  prepare(): void {
    try {
      this.validators();
    } catch {
      // the request says why
    }
  }

  /** Makes every validator the registration needs; a kind with more (a result's) adds its own. */
  protected validators(): void {
    this.argumentsValidator ??= validatorOf(this.argumentsSchema);
  }

  /** The steps, for one request with these arguments. */
  protected serve(
    args: Record<string, unknown>,
    request: Request,
  ): Answer | Asked<Answer> | Promise<Answer | Asked<Answer>> {
    const invalid = this.checkArguments(args);
    if (invalid !== undefined) return this.refuse(invalid, "arguments");
    return this.serveChecked(args, request);
  }

  /** The steps after the first, for arguments that passed their check (or cannot fail it: a fixed resource's, RegisteredResource.read). */
  protected serveChecked(
    args: Record<string, unknown>,
    request: Request,
  ): Answer | Asked<Answer> | Promise<Answer | Asked<Answer>> {
    const wire = args;
    if (this.revive) {
      try {
        args = this.revive(args);
      } catch (error) {
        // Revived as deep as they were checked: arguments nested deeper than the stack are refused, not a crash.
        if (error instanceof RangeError) return this.refuse("the arguments are nested too deeply", "arguments");
        const why = error instanceof DateError ? error.describe() : errorMessage(error);
        return this.refuse(`the arguments could not be read: ${why}`, "arguments");
      }
    }
    // Only a function that takes a context can ask the client anything.
    if (this.parameters.context === undefined) return this.run(args, request, undefined);
    const { mcpReq } = request.ctx;
    const state = mcpReq.requestState();
    const states = (this.hooks.states ??= ownStates ??= new RequestStates());
    const call = `${this.who.kind} ${this.who.name}`;
    if (state === undefined && mcpReq.inputResponses === undefined && mcpReq.droppedInputResponseKeys === undefined)
      return this.run(args, request, new Asking(states, async () => ({ call, digest: await digest(wire) })));
    return this.resume(args, wire, request, states, call, state);
  }

  /** A retry: the answers it carries (this round's, and those of earlier rounds in its signed state), then the steps. */
  private async resume(
    args: Record<string, unknown>,
    wire: Record<string, unknown>,
    request: Request,
    states: RequestStates,
    call: string,
    state: unknown,
  ): Promise<Answer | Asked<Answer>> {
    const { mcpReq } = request.ctx;
    const argumentsDigest = await digest(wire);
    // Answers of earlier rounds win: they are signed; this round's are the client's word alone anyway.
    const earlier = typeof state === "string" ? (await states.open(state, call, argumentsDigest)).a : {};
    const answers: Record<string, unknown> = { ...mcpReq.inputResponses, ...earlier };
    const asking = new Asking(
      states,
      () => Promise.resolve({ call, digest: argumentsDigest }),
      answers,
      new Set(mcpReq.droppedInputResponseKeys),
    );
    return this.run(args, request, asking);
  }

  /** Invokes the function and answers its value; a round that asked the client something is answered with the questions. */
  private run(args: Record<string, unknown>, request: Request, asking: Asking | undefined) {
    let value: unknown;
    try {
      value = this.invoke(args, request, asking);
      if (isThenable(value)) {
        if (asking)
          return asking.race(value).then(
            (round) => this.settle(round),
            (error: unknown) => this.threw(error),
          );
        return Promise.resolve(value).then(
          (settled) => this.answer(settled),
          (error: unknown) => this.threw(error),
        );
      }
    } catch (error) {
      return this.threw(error);
    }
    if (asking?.refusal) throw asking.refusal;
    return this.answer(value);
  }

  private settle(round: Round): Answer | Asked<Answer> {
    if (round.kind === "done") return this.answer(round.value);
    if (round.kind === "asked") return round.result;
    throw round.error;
  }

  /** The answer to a request refused: its arguments are invalid, or the function's value is. */
  protected abstract refuse(message: string, step: "arguments" | "result"): Answer;

  /** The function's value as the kind answers it (a refusal when it breaks its declared type). */
  protected abstract answer(value: unknown): Answer;

  /** The answer to an exception from the function's code (reported as its fault, unless its timeout made it). */
  protected threw(error: unknown): Answer {
    const message = errorMessage(error, this.who.kind);
    if (!(error !== null && (typeof error === "object" || typeof error === "function") && timeouts.has(error)))
      this.fault({ kind: "threw", error, message });
    return this.refuse(message, "result");
  }

  protected fault(fault: Fault): void {
    this.hooks.report?.(this.who, this.hooks.site, fault);
  }

  /** Undefined when the arguments are valid, else the message that says why not. */
  protected checkArguments(args: Record<string, unknown>): string | undefined {
    let found;
    try {
      this.validators();
      found = this.argumentsValidator!.validate(args);
    } catch (error) {
      // The check recurses with the data: arguments nested deeper than the stack are refused, not a crash.
      if (error instanceof RangeError) return "the arguments are nested too deeply";
      // A schema that cannot be compiled (a keyword or format typemcp does not check): refused, with the reason.
      return `the arguments could not be validated: ${errorMessage(error)}`;
    }
    return found.total === 0 ? undefined : validationMessage(String(this.argumentsSchema.title), found);
  }

  /** Calls the function with its arguments in place, within its timeout if it has one. */
  private invoke(args: Record<string, unknown>, { ctx, session }: Request, asking: Asking | undefined): unknown {
    const { params, argumentsObject, context } = this.parameters;
    // An argument left out is undefined, whatever Object.prototype holds under its name.
    let positional: unknown[];
    if (argumentsObject) positional = [args];
    else {
      positional = new Array(params.length);
      for (let i = 0; i < params.length; i++)
        positional[i] = hasOwn.call(args, params[i]) ? args[params[i]] : undefined;
    }
    if (this.timeout === undefined) {
      if (context !== undefined)
        positional.splice(context, 0, toolContext(session, this.who.name, ctx, ctx.mcpReq.signal, asking!));
      return this.fn.apply(undefined, positional);
    }
    return this.invokeWithin(this.timeout, positional, { ctx, session }, asking);
  }

  /** The call raced against the timeout: a timed-out call aborts the function's signal. */
  private async invokeWithin(
    ms: number,
    positional: unknown[],
    { ctx, session }: Request,
    asking: Asking | undefined,
  ): Promise<unknown> {
    // Aborting lets the function stop and free what it holds.
    const timer = new AbortController();
    const { context } = this.parameters;
    if (context !== undefined)
      positional.splice(
        context,
        0,
        toolContext(session, this.who.name, ctx, AbortSignal.any([ctx.mcpReq.signal, timer.signal]), asking!),
      );
    let timeout: NodeJS.Timeout | undefined;
    const expired = new Promise<never>((_, reject) => {
      timeout = setTimeout(() => {
        const error = new Error(`timed out after ${ms} ms`);
        timeouts.add(error);
        reject(error); // first: a function that stops on the abort below must not win the race
        timer.abort(error);
      }, ms);
    });
    // A round that ends with questions leaves the function waiting for good: its clock stops too.
    if (asking) asking.afterRound = () => clearTimeout(timeout);
    try {
      return await Promise.race([this.fn(...positional), expired]);
    } finally {
      clearTimeout(timeout);
    }
  }
}
