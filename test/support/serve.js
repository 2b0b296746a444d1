// Serves a compiled fixture, as a user's server would: node serve.js <module> [run options as JSON] [jwt() options as JSON].
// The module exports `mcp` (fixtures do not call run() themselves, so that tests can import them).
// Over HTTP, prints {"port": N} on stdout once listening.
const options = process.argv[3] ? JSON.parse(process.argv[3]) : {};
// A function cannot travel as JSON: with a third argument (jwt()'s options), auth verifies with jwt(them).
if (process.argv[4]) options.auth.verify = require("typemcp").jwt(JSON.parse(process.argv[4]));
require(process.argv[2])
  .mcp.run(options)
  .then(({ port }) => {
    if (options.transport === "http") console.log(JSON.stringify({ port }));
  });
