import {
  ProtocolError,
  ProtocolErrorCode,
  type CompleteResult,
  type GetPromptResult,
  type Prompt,
  type Server,
  type ServerContext,
} from "@modelcontextprotocol/server";
import { type Hooks, RegisteredFunction, retitled } from "./call/function";
import { convertText } from "./call/text-arguments";
import { completeArgument, completionsOf, type Completion } from "./completion";
import { isContentBlock } from "./content";
import type { PromptContract } from "../contract/contract";
import type { Who } from "./faults";
import type { PromptFunction, PromptMessage, PromptOptions } from "./kinds";

const ROLES = new Set(["user", "assistant"]);

function isMessage(value: unknown): value is PromptMessage {
  return (
    value !== null &&
    typeof value === "object" &&
    ROLES.has((value as { role?: unknown }).role as string) &&
    isContentBlock((value as { content?: unknown }).content)
  );
}

/** One item of a prompt's value as a message: a string or a block is the user's; a message is as it is. */
function messageOf(item: unknown): PromptMessage | undefined {
  if (typeof item === "string") return { role: "user", content: { type: "text", text: item } };
  if (isContentBlock(item)) return { role: "user", content: item };
  return isMessage(item) ? item : undefined;
}

/** What a prompt function returned (PromptResult), as `prompts/get` answers it; undefined when it is none of those forms. */
function promptResult(value: unknown): GetPromptResult | undefined {
  if (Array.isArray(value)) {
    const messages = value.map(messageOf);
    return messages.every((m) => m !== undefined) ? { messages: messages as GetPromptResult["messages"] } : undefined;
  }
  const one = messageOf(value);
  if (one) return { messages: [one] as GetPromptResult["messages"] };
  if (value !== null && typeof value === "object" && Array.isArray((value as { messages?: unknown }).messages)) {
    const { description, messages } = value as { description?: unknown; messages: unknown[] };
    if (!messages.every(isMessage) || (description !== undefined && typeof description !== "string")) return undefined;
    const result: GetPromptResult = { messages: messages as GetPromptResult["messages"] };
    if (description !== undefined) result.description = description;
    return result;
  }
  return undefined;
}

/** One registered prompt: its definition in `prompts/list`, and `prompts/get` through the steps every request takes. */
export class RegisteredPrompt extends RegisteredFunction<GetPromptResult> {
  readonly name: string;
  readonly who: Who;
  readonly definition: Prompt;
  private readonly convert: PromptContract["convert"];
  private readonly completions: Map<string, Completion>;

  constructor(fn: PromptFunction, options: PromptOptions, contract: PromptContract, hooks: Hooks = {}) {
    const name = options.name ?? contract.name;
    super(fn, contract, retitled(contract.argumentsSchema, contract.name, name), hooks);
    this.name = name;
    this.who = { kind: "prompt", name };
    this.convert = contract.convert;
    const definition: Prompt = { name };
    if (options.title !== undefined) definition.title = options.title;
    const description = options.description ?? contract.description;
    if (description !== undefined) definition.description = description;
    if (contract.arguments.length) definition.arguments = contract.arguments.map((argument) => ({ ...argument }));
    if (options.icons) definition.icons = options.icons;
    this.definition = definition;
    this.completions = completionsOf(contract, options.complete, name);
  }

  /** Runs one `prompts/get`: the arguments (text) converted where the types say so, checked, passed. */
  get(args: Record<string, string> | undefined, ctx: ServerContext, session: Server) {
    return this.serve(convertText(args ?? {}, this.convert), { ctx, session });
  }

  /** `completion/complete` for one of the prompt's arguments. */
  complete(argument: string, value: string, context: { arguments: Record<string, string> }): Promise<CompleteResult> {
    return completeArgument(this.completions, this.definition.arguments ?? [], this.who, argument, value, context);
  }

  /** A refused request is a JSON-RPC error: invalid arguments are the client's (-32602), anything else the server's (-32603). */
  protected refuse(message: string, step: "arguments" | "result"): never {
    if (step === "arguments")
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid arguments for prompt ${this.name}: ${message}`);
    throw new ProtocolError(ProtocolErrorCode.InternalError, `Error getting prompt ${this.name}: ${message}`);
  }

  protected override threw(error: unknown): GetPromptResult {
    // A protocol error the function threw on purpose is its answer.
    if (error instanceof ProtocolError) throw error;
    return super.threw(error);
  }

  protected answer(value: unknown): GetPromptResult {
    const result = promptResult(value);
    if (result) return result;
    const message =
      "the prompt returned a value that is not a prompt's (a string, a content block, a message, a list of them, or { messages })";
    this.fault({ kind: "unsendable result", message });
    return this.refuse(message, "result");
  }
}
