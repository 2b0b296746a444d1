/**
 * What a Cloudflare Worker's top level allows, in process (docs/deployment.md, "Cloudflare
 * Workers"): a module that makes a server and `mcp.handler()` there loads none of typemcp's stdio
 * module (it extends `node:events`' EventEmitter, which the page's bundle leaves out) and makes no
 * random value (a Worker refuses one outside a request: "Disallowed operation called within
 * global scope"); the first request then serves, and a call that asks the client signs its state.
 * test/runtimes.test.ts serves the page's bundle on workerd itself.
 */
import type { MCPServer as Server } from "typemcp";
import { answerOf, modernPost } from "./support/raw-http";

const INPUT = { type: "object", properties: {}, additionalProperties: false };

/** crypto.getRandomValues as a Worker's top level has it: refused. */
const refuseRandomValues = () =>
  jest.spyOn(globalThis.crypto, "getRandomValues").mockImplementation(() => {
    throw new Error("Disallowed operation called within global scope");
  });

afterEach(() => {
  jest.restoreAllMocks();
  jest.resetModules();
});

test("a server and its handler made at a module's top level load no stdio module and make no random value; the first request serves", async () => {
  jest.resetModules();
  jest.doMock("../runtime/stdio", () => {
    throw new Error("typemcp's stdio module was loaded");
  });
  const random = refuseRandomValues();
  // The Worker's top level.
  const { MCPServer, CONTRACT_VERSION } = require("typemcp") as typeof import("typemcp");
  const mcp: Server = new MCPServer("Worker", { logErrors: false });
  mcp.tool(() => "ok", {}, { v: CONTRACT_VERSION, name: "ping", params: [], inputSchema: INPUT });
  const handler = mcp.handler();
  expect(random).not.toHaveBeenCalled();
  // A request: random values are allowed from here on.
  random.mockRestore();
  const answer = await answerOf(await modernPost(handler, "tools/call", { name: "ping", arguments: {} }));
  expect(answer.result).toMatchObject({ content: [{ type: "text", text: "ok" }], resultType: "complete" });
  await handler.close();
});

test("the request-state key this process makes is made when a state is first minted, and opens what it signed", async () => {
  const { RequestStates } = require("../runtime/ask/state") as typeof import("../runtime/ask/state");
  const random = refuseRandomValues();
  const states = new RequestStates();
  expect(random).not.toHaveBeenCalled();
  random.mockRestore();
  const payload = { c: "tools/call confirm", h: "digest", a: { go: true } };
  const state = await states.mint(payload);
  expect(await states.open(state, "tools/call confirm", "digest")).toEqual(payload);
  // Made once: a second state is signed with the same key.
  expect(await states.open(await states.mint(payload), "tools/call confirm", "digest")).toEqual(payload);
});
