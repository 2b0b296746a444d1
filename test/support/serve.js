// Serves a compiled fixture over stdio, as a user's server would: node serve.js <module>.
// The module exports `mcp` (fixtures do not call run() themselves, so that tests can import them).
require(process.argv[2]).mcp.run();
