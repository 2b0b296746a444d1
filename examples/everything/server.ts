// Every feature of typemcp in one server, written with its public API only: tools (text,
// content blocks, progress, logging, errors, a tool added at run time), prompts (arguments from
// parameters, completion from a literal union and from a function), resources (text, bytes,
// JSON checked against its type, a template whose variables are parameters, a subscription).
// It is also the server the official MCP conformance suite runs against (the tools, prompts and
// resources it asks for by name are the `test_` ones). Importing it starts nothing: main.ts serves it.
import {
  MCPServer,
  ResourceNotFoundError,
  type AudioContent,
  type EmbeddedResource,
  type ImageContent,
  type Integer,
  type PromptMessage,
  type ToolContext,
} from "typemcp";

export const mcp = new MCPServer("typemcp-everything", {
  version: "1.0.0",
  instructions: "Every kind of MCP feature typemcp serves, for trying them out.",
});

// A 1×1 PNG and a tiny WAV.
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
const WAV = "UklGRiQAAABXQVZFZm10IBAAAAABAAEARKwAAIhYAQACABAAZGF0YQAAAAA=";

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// ── Tools ────────────────────────────────────────────────────────────────────────────────────

/** Tests simple text content response. */
function test_simple_text(): string {
  return "This is a simple text response for testing.";
}

/** Tests image content response. */
function test_image_content(): ImageContent {
  return { type: "image", data: PNG, mimeType: "image/png" };
}

/** Tests audio content response. */
function test_audio_content(): AudioContent {
  return { type: "audio", data: WAV, mimeType: "audio/wav" };
}

/** Tests embedded resource content response. */
function test_embedded_resource(): EmbeddedResource {
  return {
    type: "resource",
    resource: {
      uri: "test://embedded-resource",
      mimeType: "text/plain",
      text: "This is an embedded resource content.",
    },
  };
}

/** Tests response with multiple content types (text, image, resource). */
function test_multiple_content_types(): (string | ImageContent | EmbeddedResource)[] {
  return [
    "Multiple content types test:",
    { type: "image", data: PNG, mimeType: "image/png" },
    {
      type: "resource",
      resource: {
        uri: "test://mixed-content-resource",
        mimeType: "application/json",
        text: JSON.stringify({ test: "data", value: 123 }),
      },
    },
  ];
}

/** Tests tool that emits log messages during execution. */
async function test_tool_with_logging(ctx: ToolContext): Promise<string> {
  for (const [i, step] of ["Tool execution started", "Tool processing data", "Tool execution completed"].entries()) {
    if (i > 0) await pause(50);
    await ctx.log("info", step);
  }
  return "Tool with logging executed successfully";
}

/** Logs once: a client that asked for no log level gets none. */
async function test_logging_tool(ctx: ToolContext): Promise<string> {
  await ctx.log("info", "diagnostic log message");
  return "logged";
}

/** Tests tool that reports progress notifications. */
async function test_tool_with_progress(ctx: ToolContext): Promise<string> {
  for (const step of [0, 50, 100]) {
    if (step > 0) await pause(50);
    await ctx.reportProgress(step, 100, `Completed step ${step} of 100`);
  }
  return "done";
}

/** Tests error response handling. */
function test_error_handling(): string {
  throw new Error("This tool intentionally returns an error for testing");
}

interface Forecast {
  /** The city, as asked. */
  city: string;
  /** One temperature a day, in degrees Celsius. */
  temperatures: number[];
}

/**
 * A forecast: structured output, checked against its type, and arguments checked against theirs.
 * @param city The city.
 * @param days How many days, 1 to 7.
 */
function forecast(city: string, days: Integer = 3): Forecast {
  if (days < 1 || days > 7) throw new Error("days must be 1 to 7");
  return { city, temperatures: Array.from({ length: days }, (_, day) => 16 + day) };
}

let added = 0;

/** A tool added while the server runs. */
function dynamic_tool(): string {
  return "added at run time";
}

/** Adds a tool, so that the tool list changes (and clients listening are told). */
function test_trigger_tool_change(): string {
  const name = `dynamic_tool_${++added}`;
  mcp.tool(dynamic_tool, { name });
  return `added ${name}`;
}

/** A prompt added while the server runs. */
function dynamic_prompt(): string {
  return "A prompt added at run time.";
}

/** Adds a prompt, so that the prompt list changes (and clients listening are told). */
function test_trigger_prompt_change(): string {
  const name = `dynamic_prompt_${++added}`;
  mcp.prompt(dynamic_prompt, { name });
  return `added ${name}`;
}

let watched = 0;

/** Changes the watched resource, and tells the clients subscribed to it. */
function test_update_watched_resource(): string {
  watched++;
  mcp.resourceUpdated("test://watched-resource");
  return `updated ${watched} times`;
}

mcp.tool(test_simple_text);
mcp.tool(test_image_content);
mcp.tool(test_audio_content);
mcp.tool(test_embedded_resource);
mcp.tool(test_multiple_content_types);
mcp.tool(test_tool_with_logging);
mcp.tool(test_logging_tool);
mcp.tool(test_tool_with_progress);
mcp.tool(test_error_handling);
mcp.tool(forecast, { annotations: { readOnlyHint: true } });
mcp.tool(test_trigger_tool_change);
mcp.tool(test_trigger_prompt_change);
mcp.tool(test_update_watched_resource);

// ── Asking the client ───────────────────────────────────────────────────────────────────────
// A question a call asks (ctx.elicit, ctx.sample, ctx.roots): on 2025-11-25 a request to the
// client; on 2026-07-28 an `input_required` answer, and the call runs again with the answers.

interface UserInfo {
  /** User's response */
  username: string;
  /** User's email address */
  email: string;
}

/**
 * Asks the user for a name and an email.
 * @param message The message to show the user.
 */
async function test_elicitation(message: string, ctx: ToolContext): Promise<string> {
  const answer = await ctx.elicit<UserInfo>(message);
  return `User response: action=${answer.action}, content=${JSON.stringify(answer.action === "accept" ? answer.content : {})}`;
}

/**
 * Asks the client's model.
 * @param prompt The prompt to send.
 */
async function test_sampling(prompt: string, ctx: ToolContext): Promise<string> {
  const { content } = await ctx.sample(prompt, { maxTokens: 100 });
  return `LLM response: ${"type" in content && content.type === "text" ? content.text : JSON.stringify(content)}`;
}

/** A default for every kind of field (SEP-1034). */
interface Defaults {
  /**
   * User name
   * @default "John Doe"
   */
  name: string;
  /**
   * User age
   * @default 30
   */
  age: Integer;
  /**
   * User score
   * @default 95.5
   */
  score: number;
  /**
   * User status
   * @default "active"
   */
  status: "active" | "inactive" | "pending";
  /**
   * Verification status
   * @default true
   */
  verified: boolean;
}

/** Asks with a default for every field: a client shows them filled in. */
async function test_elicitation_sep1034_defaults(ctx: ToolContext): Promise<string> {
  const answer = await ctx.elicit<Defaults>("Test client default value handling - please accept with defaults");
  return `Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.action === "accept" ? answer.content : {})}`;
}

// A titled choice: each member's JSDoc is its title.
enum Titled {
  /** First Option */
  Value1 = "value1",
  /** Second Option */
  Value2 = "value2",
  /** Third Option */
  Value3 = "value3",
}

enum LegacyTitled {
  /** Option One */
  Opt1 = "opt1",
  /** Option Two */
  Opt2 = "opt2",
  /** Option Three */
  Opt3 = "opt3",
}

enum TitledChoices {
  /** First Choice */
  Value1 = "value1",
  /** Second Choice */
  Value2 = "value2",
  /** Third Choice */
  Value3 = "value3",
}

/** Every kind of choice a form offers (SEP-1330). */
interface Choices {
  untitledSingle: "option1" | "option2" | "option3";
  titledSingle: Titled;
  /** @enumNames */
  legacyEnum: LegacyTitled;
  untitledMulti: ("option1" | "option2" | "option3")[];
  titledMulti: TitledChoices[];
}

/** Asks with every kind of choice. */
async function test_elicitation_sep1330_enums(ctx: ToolContext): Promise<string> {
  const answer = await ctx.elicit<Choices>("Pick your options");
  return `Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.action === "accept" ? answer.content : {})}`;
}

interface Name {
  name: string;
}

/** Asks the user's name under the key the conformance suite looks for. */
async function test_input_required_result_elicitation(ctx: ToolContext): Promise<string> {
  const answer = await ctx.elicit<Name>("What is your name?", { key: "user_name" });
  return answer.action === "accept" ? `Hello, ${answer.content.name}!` : `No name (${answer.action}).`;
}

/** The text of a sampling result. */
function textOf(result: Awaited<ReturnType<ToolContext["sample"]>>): string {
  const blocks = Array.isArray(result.content) ? result.content : [result.content];
  return blocks.map((block) => (block.type === "text" ? block.text : `[${block.type}]`)).join("");
}

/** Asks the client's model a question. */
async function test_input_required_result_sampling(ctx: ToolContext): Promise<string> {
  const answer = await ctx.sample("What is the capital of France?", { maxTokens: 100, key: "capital_question" });
  return `The model says: ${textOf(answer)}`;
}

/** Asks the client for its roots. */
async function test_input_required_result_list_roots(ctx: ToolContext): Promise<string> {
  const roots = await ctx.roots({ key: "client_roots" });
  return `Roots: ${roots.map((root) => root.uri).join(", ") || "none"}`;
}

interface Confirmation {
  ok: boolean;
}

/** Asks for a confirmation; the answer comes back with a requestState the server signed and checked. */
async function test_input_required_result_request_state(ctx: ToolContext): Promise<string> {
  const answer = await ctx.elicit<Confirmation>("Please confirm", { key: "confirm" });
  return answer.action === "accept" && answer.content.ok ? "Confirmed: state-ok" : `Not confirmed (state-ok)`;
}

/** Asks three questions in one round: the user's name, the model, the roots. */
async function test_input_required_result_multiple_inputs(ctx: ToolContext): Promise<string> {
  const [name, greeting, roots] = await Promise.all([
    ctx.elicit<Name>("What is your name?", { key: "user_name" }),
    ctx.sample("Generate a greeting", { maxTokens: 50, key: "greeting" }),
    ctx.roots({ key: "client_roots" }),
  ]);
  const who = name.action === "accept" ? name.content.name : "someone";
  return `${textOf(greeting)} ${who} (${roots.length} roots)`;
}

interface Color {
  color: string;
}

/** Asks two questions, one after the other: two rounds. */
async function test_input_required_result_multi_round(ctx: ToolContext): Promise<string> {
  const name = await ctx.elicit<Name>("Step 1: What is your name?", { key: "step1" });
  const color = await ctx.elicit<Color>("Step 2: What is your favorite color?", { key: "step2" });
  const who = name.action === "accept" ? name.content.name : "someone";
  return `${who} likes ${color.action === "accept" ? color.content.color : "no color"}`;
}

/** Asks a question whose answer comes back with a signed requestState: an altered one is refused. */
async function test_input_required_result_tampered_state(ctx: ToolContext): Promise<string> {
  const answer = await ctx.elicit<Confirmation>("Please confirm", { key: "confirm" });
  return answer.action;
}

/** Asks only what the client declared it can answer. */
async function test_input_required_result_capabilities(ctx: ToolContext): Promise<string> {
  const asked: Promise<unknown>[] = [];
  if (ctx.can("elicit")) asked.push(ctx.elicit<Name>("What is your name?", { key: "user_name" }));
  if (ctx.can("sample")) asked.push(ctx.sample("Say hello", { maxTokens: 10, key: "hello" }));
  if (ctx.can("roots")) asked.push(ctx.roots({ key: "client_roots" }));
  await Promise.all(asked);
  return `${asked.length} questions answered`;
}

/** Asks the client's model whatever the client declared: one that did not declare sampling gets -32021. */
async function test_missing_capability(ctx: ToolContext): Promise<string> {
  return textOf(await ctx.sample("Hello", { maxTokens: 10 }));
}

mcp.tool(test_elicitation);
mcp.tool(test_elicitation_sep1034_defaults);
mcp.tool(test_elicitation_sep1330_enums);
mcp.tool(test_sampling);
mcp.tool(test_input_required_result_elicitation);
mcp.tool(test_input_required_result_sampling);
mcp.tool(test_input_required_result_list_roots);
mcp.tool(test_input_required_result_request_state);
mcp.tool(test_input_required_result_multiple_inputs);
mcp.tool(test_input_required_result_multi_round);
mcp.tool(test_input_required_result_tampered_state);
mcp.tool(test_input_required_result_capabilities);
mcp.tool(test_missing_capability);
mcp.tool(test_streaming_elicitation);

/** Reports progress, then asks: the stream of a 2026-07-28 call carries notifications and its answer, never a request. */
async function test_streaming_elicitation(ctx: ToolContext): Promise<string> {
  await ctx.reportProgress(1, 2, "asking");
  const answer = await ctx.elicit<Name>("What is your name?");
  return answer.action === "accept" ? `Hello, ${answer.content.name}!` : `No name (${answer.action}).`;
}

// ── Prompts ──────────────────────────────────────────────────────────────────────────────────

/** A simple prompt without arguments. */
function test_simple_prompt(): string {
  return "This is a simple prompt for testing.";
}

/**
 * A prompt with required arguments.
 * @param arg1 First test argument.
 * @param arg2 Second test argument.
 */
function test_prompt_with_arguments(arg1: string, arg2: string): string {
  return `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'`;
}

/**
 * A prompt that includes an embedded resource.
 * @param resourceUri URI of the resource to embed.
 */
function test_prompt_with_embedded_resource(resourceUri: string): [EmbeddedResource, string] {
  return [
    {
      type: "resource",
      resource: { uri: resourceUri, mimeType: "text/plain", text: "Embedded resource content for testing." },
    },
    "Please process the embedded resource above.",
  ];
}

/** A prompt that includes image content. */
function test_prompt_with_image(): [ImageContent, string] {
  return [{ type: "image", data: PNG, mimeType: "image/png" }, "Please analyze the image above."];
}

const LANGUAGES = ["TypeScript", "Python", "Rust", "Go"];

/**
 * Review code, as a conversation: the request, and the reviewer's first words.
 * @param code The code to review.
 * @param focus What to look at first.
 * @param language The code's language.
 * @param strict Whether to flag every style issue.
 */
function review_code(
  code: string,
  focus: "correctness" | "style" | "performance" = "correctness",
  language?: string,
  strict = false,
): PromptMessage[] {
  return [
    {
      role: "user",
      content: {
        type: "text",
        text: `Review this ${language ? `${language} ` : ""}code for ${focus}${strict ? ", strictly" : ""}:\n${code}`,
      },
    },
    { role: "assistant", content: { type: "text", text: `I'll look at its ${focus} first.` } },
  ];
}

mcp.prompt(test_simple_prompt);
mcp.prompt(test_prompt_with_arguments);
mcp.prompt(test_prompt_with_embedded_resource);
mcp.prompt(test_prompt_with_image);
mcp.prompt(review_code, {
  title: "Code review",
  // `focus` completes from its type with no code; `language` from this function.
  complete: { language: (value) => LANGUAGES.filter((l) => l.toLowerCase().startsWith(value.toLowerCase())) },
});

interface PromptContext {
  context: string;
}

/** A prompt that asks the user what it should be about. */
async function test_input_required_result_prompt(ctx: ToolContext): Promise<string> {
  const answer = await ctx.elicit<PromptContext>("What context should the prompt use?", { key: "user_context" });
  return answer.action === "accept" ? `Use this context: ${answer.content.context}` : "Use no particular context.";
}

mcp.prompt(test_input_required_result_prompt);

// ── Resources ────────────────────────────────────────────────────────────────────────────────

/** A static text resource for testing. */
function static_text(): string {
  return "This is the content of the static text resource.";
}

/** A static binary resource (image) for testing. */
function static_binary(): Uint8Array {
  return Buffer.from(PNG, "base64");
}

interface TemplateData {
  id: string;
  templateTest: boolean;
  data: string;
}

/**
 * A resource template with parameter substitution.
 * @param id The item's id.
 */
function template(id: string): TemplateData {
  return { id, templateTest: true, data: `Data for ID: ${id}` };
}

/** A resource that changes when test_update_watched_resource is called. */
function watched_resource(): string {
  return `Watched resource content, version ${watched}.`;
}

interface User {
  id: Integer;
  name: string;
  role: "admin" | "member";
}

const USERS: User[] = [
  { id: 1, name: "Ada", role: "admin" },
  { id: 2, name: "Grace", role: "member" },
];

/**
 * A user, by id: JSON checked against User.
 * @param id The user's id.
 */
function user(id: Integer): User {
  const found = USERS.find((u) => u.id === id);
  if (!found) throw new ResourceNotFoundError(`users://${id}`, `No user ${id}`);
  return found;
}

mcp.resource("test://static-text", static_text, { title: "Static Text Resource" });
mcp.resource("test://static-binary", static_binary, { title: "Static Binary Resource", mimeType: "image/png" });
mcp.resource("test://template/{id}/data", template, { title: "Resource Template" });
mcp.resource("test://watched-resource", watched_resource, { title: "Watched Resource" });
mcp.resource("users://{id}", user, {
  list: () => USERS.map((u) => ({ uri: `users://${u.id}`, name: u.name })),
  complete: { id: (value) => USERS.map((u) => String(u.id)).filter((id) => id.startsWith(value)) },
});
