/**
 * `--watch`: the command again whenever a file of the project changes. The project stays open
 * (on TypeScript 7, its compiler process keeps the program and reads again only what changed).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { Session } from "./project";

/** Files whose change may change the build: sources, declarations, JSON, tsconfig files. */
const RELEVANT = /\.(?:[cm]?tsx?|[cm]?jsx?|json)$/;

/** `again`: what the command does again, as the line printed on a change says it ("building", "checking"). */
export function watchProject(
  session: Session,
  configFile: string,
  once: () => number | Promise<number>,
  again: string,
): Promise<number> {
  const root = path.dirname(configFile);
  const changed = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let running = Promise.resolve();
  const stamp = () => new Date().toLocaleTimeString("en-GB");
  const cycle = (first: boolean) => {
    running = running.then(async () => {
      if (!first) {
        const files = [...changed];
        changed.clear();
        process.stdout.write(
          `[${stamp()}] File change detected (${files.map((f) => path.relative(process.cwd(), f)).join(", ")}): ${again} again.\n`,
        );
        session.update(files);
      }
      try {
        await once();
      } catch (error) {
        process.stdout.write(`typemcp: ${error instanceof Error ? error.message : String(error)}\n`);
      }
      process.stdout.write(`[${stamp()}] Watching for file changes.\n`);
    });
  };
  const outDir = (session.compilerOptions as { outDir?: unknown }).outDir;
  const ignored = (file: string) =>
    file.includes(`${path.sep}node_modules${path.sep}`) ||
    (typeof outDir === "string" && path.resolve(root, outDir) === file.slice(0, path.resolve(root, outDir).length));
  const watcher = fs.watch(root, { recursive: true }, (_event, name) => {
    if (!name) return;
    const file = path.resolve(root, name.toString());
    if (!RELEVANT.test(file) || ignored(file)) return;
    changed.add(file);
    clearTimeout(timer);
    timer = setTimeout(() => cycle(false), 100);
  });
  cycle(true);
  return new Promise((resolve) => {
    const stop = () => {
      watcher.close();
      void Promise.resolve(session.close()).then(() => resolve(0));
    };
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
}
