// Serves a Worker on workerd through miniflare's API, as `wrangler dev` does locally
// (test/support/runtimes.ts copies this file beside miniflare in .build/runtimes, where its import
// resolves): node workerd.mjs <settings as JSON: script, compatibilityDate, compatibilityFlags, port>.
// Prints {"url": ...} once workerd listens; disposes of it on SIGTERM.
import * as path from "node:path";
import { Miniflare } from "miniflare";

const { script, compatibilityDate, compatibilityFlags, port } = JSON.parse(process.argv[2]);
const miniflare = new Miniflare({
  modules: true,
  scriptPath: script,
  // The bundle's folder is the root its module is named from, as wrangler uploads it.
  modulesRoot: path.dirname(script),
  compatibilityDate,
  compatibilityFlags,
  host: "127.0.0.1",
  port,
});
const url = await miniflare.ready;
console.log(JSON.stringify({ url: url.href }));
process.once("SIGTERM", () => void miniflare.dispose().finally(() => process.exit(0)));
