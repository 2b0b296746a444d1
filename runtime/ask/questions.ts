/**
 * The questions a ToolContext asks (`ctx.elicit`, `ctx.elicitUrl`, `ctx.sample`, `ctx.roots`)
 * and `ctx.can`, as the SDK builds each request (`inputRequired.elicit`, ...), handed to the
 * request's Asking.
 */
import { inputRequired, type ClientCapabilities } from "@modelcontextprotocol/server";
import { CONTRACT_VERSION, type FormContract } from "../../contract/contract";
import { readElicitation, readRoots, readSampling, readUrlElicitation } from "./answers";
import type { Asking } from "./asking";
import type { AskKind, AskOptions, SampleOptions, SamplingRequest } from "./kinds";

const NOT_BUILT =
  "ctx.elicit() was not built by typemcp: its form is written at build time from its type argument (`ctx.elicit<Booking>(message)`). Build with tspc and the typemcp plugin (TypeScript 5/6) or `npx typemcp build` (TypeScript 7)";

function isForm(value: unknown): value is FormContract {
  return value !== null && typeof value === "object" && typeof (value as FormContract).v === "number";
}

/** Whether the client declared it can answer `kind` (a bare `elicitation: {}` is the form mode, as the SDK reads it). */
export function canAnswer(capabilities: ClientCapabilities | undefined, kind: AskKind): boolean {
  if (!capabilities) return false;
  const elicitation = capabilities.elicitation as { form?: object; url?: object } | undefined;
  switch (kind) {
    case "elicit":
      return elicitation !== undefined && (elicitation.form !== undefined || elicitation.url === undefined);
    case "elicitUrl":
      return elicitation?.url !== undefined;
    case "sample":
      return capabilities.sampling !== undefined;
    case "roots":
      return capabilities.roots !== undefined;
    default:
      return false;
  }
}

/** The asking methods of one request's ToolContext. */
export function questions(asking: Asking, capabilities: () => ClientCapabilities | undefined) {
  return {
    elicit(message: string, options?: AskOptions, form?: unknown): Promise<never> {
      if (typeof message !== "string")
        return Promise.reject(new TypeError(`typemcp: ctx.elicit() takes a message (got ${typeof message})`));
      if (!isForm(form)) return Promise.reject(new Error(`typemcp: ${NOT_BUILT}`));
      if (form.v !== CONTRACT_VERSION)
        return Promise.reject(
          new Error(
            `typemcp: ctx.elicit<${form.name}>() was built by another version of typemcp (form version ${form.v}, this runtime reads ${CONTRACT_VERSION}): rebuild`,
          ),
        );
      if (form.error !== undefined)
        return Promise.reject(
          new Error(`typemcp: ctx.elicit<${form.name}>() has no form: the build reported: ${form.error}`),
        );
      const request = inputRequired.elicit({ message, requestedSchema: form.requestedSchema as never });
      return asking.ask("elicit", options?.key, request, readElicitation(form)) as Promise<never>;
    },
    elicitUrl(message: string, url: string, options?: AskOptions) {
      if (typeof message !== "string" || typeof url !== "string")
        return Promise.reject(new TypeError("typemcp: ctx.elicitUrl() takes a message and a URL"));
      return asking.ask("elicitUrl", options?.key, inputRequired.elicitUrl({ message, url }), readUrlElicitation);
    },
    sample(request: string | SamplingRequest, options?: AskOptions | SampleOptions) {
      let params: SamplingRequest;
      if (typeof request === "string") {
        const { maxTokens, systemPrompt, temperature } = (options ?? {}) as Partial<SampleOptions>;
        if (typeof maxTokens !== "number")
          return Promise.reject(new TypeError("typemcp: ctx.sample(prompt, { maxTokens }) needs maxTokens, a number"));
        params = { messages: [{ role: "user", content: { type: "text", text: request } }], maxTokens };
        if (systemPrompt !== undefined) params.systemPrompt = systemPrompt;
        if (temperature !== undefined) params.temperature = temperature;
      } else if (request !== null && typeof request === "object") params = request;
      else return Promise.reject(new TypeError("typemcp: ctx.sample() takes a prompt or a sampling request"));
      return asking.ask("sample", options?.key, inputRequired.createMessage(params), readSampling);
    },
    roots(options?: AskOptions) {
      return asking.ask("roots", options?.key, inputRequired.listRoots(), readRoots);
    },
    can(kind: AskKind): boolean {
      return canAnswer(capabilities(), kind);
    },
  };
}
