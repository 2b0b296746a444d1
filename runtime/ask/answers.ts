/**
 * Reading the client's answers: each kind of question has one shape of answer, checked before
 * the function sees it. An answer that is not of its question's shape (or a form answered with
 * values its type does not allow) ends the request with -32602, naming the question and what
 * was wrong: it is the client's error, and the function's code never sees it.
 */
import type { Root } from "@modelcontextprotocol/server";
import { type Validator, validatorOf } from "../validation/validator";
import type { FormContract, JsonSchema } from "../../contract/contract";
import { validationMessage } from "../validation/messages";
import type { Elicitation, SamplingResult, UrlElicitation } from "./kinds";

/** What reading an answer gives: the value the function gets, or why the answer is refused. */
export type Read<T> = { ok: true; value: T } | { ok: false; why: string };

const ACTIONS = new Set(["accept", "decline", "cancel"]);

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  return typeof value === "object" ? "an object" : `${typeof value} ${JSON.stringify(value)}`;
}

/**
 * Forms' validators, by the form's text: the build writes each form as a literal at its call,
 * so every call brings a new object of the same text, and the forms of a program are few.
 */
const formValidators = new Map<string, Validator>();

/** A choice's `oneOf`/`anyOf` of `{const, title}` as the `enum` of its values (the titles are for the user, not the check). */
function choiceOf(schema: JsonSchema): JsonSchema {
  const { oneOf, anyOf, enumNames, ...rest } = schema;
  void enumNames;
  const titled = (oneOf ?? anyOf) as { const: unknown }[] | undefined;
  if (titled) rest.enum = titled.map((option) => option.const);
  return rest;
}

/** The form as the answer is checked: its fields, each choice as an enum, closed. */
function checkedForm(form: FormContract): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const [name, field] of Object.entries((form.requestedSchema.properties ?? {}) as Record<string, JsonSchema>)) {
    const checked = choiceOf(field);
    if (checked.items !== undefined) checked.items = choiceOf(checked.items as JsonSchema);
    properties[name] = checked;
  }
  return { ...form.requestedSchema, properties, title: form.name, additionalProperties: false };
}

function formValidator(form: FormContract): Validator {
  const text = `${form.name}\n${JSON.stringify(form.requestedSchema)}`;
  let validator = formValidators.get(text);
  if (!validator) formValidators.set(text, (validator = validatorOf(checkedForm(form))));
  return validator;
}

function action(response: unknown): Read<Record<string, unknown>> {
  if (!isObject(response)) return { ok: false, why: `is ${describe(response)}, not an elicitation result` };
  if (!ACTIONS.has(response.action as string))
    return { ok: false, why: `has action ${JSON.stringify(response.action)}: it is "accept", "decline" or "cancel"` };
  return { ok: true, value: response };
}

/** An answer to `ctx.elicit<T>()`: accepted content is checked against the form written from T. */
export function readElicitation(form: FormContract) {
  return (response: unknown): Read<Elicitation<unknown>> => {
    const read = action(response);
    if (!read.ok) return read;
    const { action: act, content } = read.value;
    if (act !== "accept") return { ok: true, value: { action: act as "decline" | "cancel" } };
    const found = formValidator(form).validate(content ?? {});
    if (found.total > 0) return { ok: false, why: `does not fit the form: ${validationMessage(form.name, found)}` };
    return { ok: true, value: { action: "accept", content: content ?? {} } };
  };
}

/** An answer to `ctx.elicitUrl()`: the action alone. */
export function readUrlElicitation(response: unknown): Read<UrlElicitation> {
  const read = action(response);
  return read.ok ? { ok: true, value: { action: read.value.action as UrlElicitation["action"] } } : read;
}

/** An answer to `ctx.sample()`: a message from the client's model (`role`, `content`, `model`). */
export function readSampling(response: unknown): Read<SamplingResult> {
  if (!isObject(response)) return { ok: false, why: `is ${describe(response)}, not a sampling result` };
  if (response.role !== "user" && response.role !== "assistant")
    return {
      ok: false,
      why: `has role ${JSON.stringify(response.role)}: a sampling result's is "assistant" or "user"`,
    };
  if (!isObject(response.content) && !Array.isArray(response.content))
    return { ok: false, why: "has no content: a sampling result holds a content block" };
  if (typeof response.model !== "string")
    return { ok: false, why: "has no model name: a sampling result names its model" };
  return { ok: true, value: response as unknown as SamplingResult };
}

/** An answer to `ctx.roots()`: a list of roots, each with a `file://` URI. */
export function readRoots(response: unknown): Read<Root[]> {
  if (!isObject(response) || !Array.isArray(response.roots))
    return { ok: false, why: `is ${describe(response)}, not a roots/list result (an object with a roots list)` };
  for (const [i, root] of response.roots.entries()) {
    if (!isObject(root) || typeof root.uri !== "string") return { ok: false, why: `has roots[${i}] without a uri` };
  }
  return { ok: true, value: response.roots as Root[] };
}
