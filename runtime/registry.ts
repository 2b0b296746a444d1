import type { Prompt, Resource, ResourceTemplateType, Tool } from "@modelcontextprotocol/server";
import type { CallSite } from "./faults";
import type { RegisteredPrompt } from "./prompt";
import type { RegisteredResource } from "./resource";
import type { RegisteredTool } from "./tool";
import { toolNameProblem } from "../contract/tool-name";

/** The lists a client can be told have changed. */
export type ListKind = "tools" | "prompts" | "resources";

/** A name as a message shows it: a string quoted, anything else as it is, cut short. */
function shortName(name: unknown): string {
  const text = typeof name === "string" ? JSON.stringify(name) : String(name);
  return text.length > 140 ? `${text.slice(0, 140)}…` : text;
}

/** "(first at a.ts:1:1, again at a.ts:2:1)", as far as the places are known. */
function places(first: CallSite | undefined, again: CallSite | undefined): string {
  const list = [first?.location && `first at ${first.location}`, again?.location && `again at ${again.location}`]
    .filter(Boolean)
    .join(", ");
  return list ? ` (${list})` : "";
}

const RENAME = ': give one of them another name with { name: "..." }';

/** Throws when a registration's name (a resource's URI) is already taken, naming both places. */
function refuseSecond(
  first: { site?: CallSite } | undefined,
  again: { site?: CallSite },
  what: string,
  hint: string,
): void {
  if (first) throw new Error(`typemcp: ${what} is already registered${places(first.site, again.site)}${hint}`);
}

/**
 * What a server serves: its tools, prompts, resources and resource templates, each under the
 * key a client asks for it by (a tool's or prompt's name, a resource's URI, a template's text),
 * and the lists `*\/list` answers, built once per change. Every SDK server instance reads the
 * same registry, so a registration reaches every connection, and the list-changed
 * notifications are sent from one place (`onChange`).
 */
export class Registry {
  readonly tools = new Map<string, RegisteredTool>();
  readonly prompts = new Map<string, RegisteredPrompt>();
  /** Resources at a fixed URI, by URI. */
  readonly resources = new Map<string, RegisteredResource>();
  /** Resource templates, by their text, in the order registered (the first that matches a URI serves it). */
  readonly templates = new Map<string, RegisteredResource>();
  private lists: { tools?: Tool[]; prompts?: Prompt[]; resources?: Resource[]; templates?: ResourceTemplateType[] } =
    {};
  /** Told when a list changes (a registration made while the server serves). */
  onChange?: (kind: ListKind) => void;

  addTool(tool: RegisteredTool): void {
    // The transformer checks a name written as a literal; a name computed at run time is checked here, by the same rule.
    const problem = toolNameProblem(tool.name);
    if (problem) {
      const where = tool.site?.location ? ` (registered at ${tool.site.location})` : "";
      throw new Error(`typemcp: tool name ${shortName(tool.name)}${where} is not a valid MCP tool name: ${problem}`);
    }
    refuseSecond(this.tools.get(tool.name), tool, `a tool named ${JSON.stringify(tool.name)}`, RENAME);
    this.tools.set(tool.name, tool);
    this.changed("tools");
  }

  addPrompt(prompt: RegisteredPrompt): void {
    if (typeof prompt.name !== "string" || prompt.name === "")
      throw new Error(`typemcp: a prompt's name must be a non-empty string (got ${shortName(prompt.name)})`);
    refuseSecond(this.prompts.get(prompt.name), prompt, `a prompt named ${JSON.stringify(prompt.name)}`, RENAME);
    this.prompts.set(prompt.name, prompt);
    this.changed("prompts");
  }

  addResource(resource: RegisteredResource): void {
    const into = resource.template ? this.templates : this.resources;
    const what = `a resource ${resource.template ? "template" : "at"} ${JSON.stringify(resource.uri)}`;
    refuseSecond(into.get(resource.uri), resource, what, "");
    into.set(resource.uri, resource);
    this.changed("resources");
  }

  /** The resource that serves `uri`: the one at that URI, else the first template that matches it, with its variables. */
  resourceAt(uri: string): { resource: RegisteredResource; variables?: Record<string, string | string[]> } | undefined {
    const fixed = this.resources.get(uri);
    if (fixed) return { resource: fixed };
    for (const resource of this.templates.values()) {
      // The SDK's matcher builds its regular expression on every call (about 10k instructions), and
      // the template's text before its first variable begins that expression, escaped: a URI that
      // does not begin with it is no match, and is not asked.
      if (!uri.startsWith(resource.literalPrefix)) continue;
      const variables = resource.template!.match(uri);
      if (variables) return { resource, variables };
    }
    return undefined;
  }

  toolsList(): Tool[] {
    return (this.lists.tools ??= [...this.tools.values()].map((t) => t.definition));
  }

  promptsList(): Prompt[] {
    return (this.lists.prompts ??= [...this.prompts.values()].map((p) => p.definition));
  }

  /** The resources at fixed URIs, then the instances the templates list (asked each time: they may change). */
  async resourcesList(): Promise<Resource[]> {
    const fixed = (this.lists.resources ??= [...this.resources.values()].map((r) => r.listing));
    const listing = [...this.templates.values()].filter((t) => t.list);
    if (!listing.length) return fixed;
    const instances = await Promise.all(listing.map((t) => t.instances()));
    return [...fixed, ...instances.flat()];
  }

  templatesList(): ResourceTemplateType[] {
    return (this.lists.templates ??= [...this.templates.values()].map((t) => t.templateListing));
  }

  /** Whether a template lists its instances (then `resources/list` is not fixed, and is not cached by default). */
  get listsInstances(): boolean {
    for (const template of this.templates.values()) if (template.list) return true;
    return false;
  }

  get hasResources(): boolean {
    return this.resources.size > 0 || this.templates.size > 0;
  }

  /** Whether anything can be completed: a prompt with arguments, or a template with variables. */
  get completes(): boolean {
    for (const prompt of this.prompts.values()) if (prompt.definition.arguments?.length) return true;
    return this.templates.size > 0;
  }

  private changed(kind: ListKind): void {
    if (kind === "resources") this.lists.resources = this.lists.templates = undefined;
    else this.lists[kind] = undefined;
    this.onChange?.(kind);
  }
}
