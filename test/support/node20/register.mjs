// Node 20 lacks fs.globSync, which @modelcontextprotocol/conformance imports (its server
// scenarios never call it). `node --import <this file>` points that one import at a shim.
import { register } from "node:module";

register("./hooks.mjs", import.meta.url);
