// npm run example: builds examples/weather with tspc (the typemcp plugin runs inside it),
// starts the server over stdio, and shows its tools/list and a few calls, through the
// official SDK client.
const { spawnSync } = require("node:child_process");
const path = require("node:path");
const { Client } = require("@modelcontextprotocol/sdk/client/index.js");
const { StdioClientTransport } = require("@modelcontextprotocol/sdk/client/stdio.js");

const root = path.resolve(__dirname, "..");
const project = path.join(__dirname, "weather");

function show(title, value) {
  console.log(`\n── ${title}\n${JSON.stringify(value, null, 2)}`);
}

async function main() {
  console.log("$ npx tspc -p examples/weather");
  const build = spawnSync(path.join(root, "node_modules", ".bin", "tspc"), ["-p", project], { encoding: "utf8", cwd: root });
  process.stdout.write(build.stdout + build.stderr);
  if (build.status !== 0) throw new Error(`tspc exited with status ${build.status}`);

  const transport = new StdioClientTransport({ command: process.execPath, args: [path.join(project, "dist", "server.js")] });
  const client = new Client({ name: "example", version: "1.0.0" });
  await client.connect(transport);
  show("tools/list", await client.listTools());
  for (const [name, args] of [
    ["get_temperature", { city: "London" }],
    ["get_weather", { city: "London" }],
    ["get_forecast", { city: "London", days: 2 }],
    ["get_temperatures", { cities: ["London", "Reykjavik"] }],
    ["weather_report", { city: "London" }],
    ["get_forecast", { city: "London", days: "two" }],
  ]) {
    show(`tools/call ${name} ${JSON.stringify(args)}`, await client.callTool({ name, arguments: args }));
  }
  await client.close();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
