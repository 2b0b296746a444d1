import { execFileSync } from "node:child_process";

/** npm, as the consumer projects run it: output captured, nothing read from the terminal. */
export const npm = (args: string[], cwd: string) =>
  execFileSync("npm", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });

/** A source whose return type (a class with no declared properties) gets typemcp's warning. */
export const STATION = `import { MCPServer } from "typemcp";

class Station {
  constructor(name: string) {
    Object.assign(this, { name });
  }
}

/** Look up a weather station by name. */
function get_station(name: string): Station {
  return new Station(name);
}

new MCPServer("Stations").tool(get_station);
`;
