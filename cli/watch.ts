/**
 * `--watch`: the command again whenever a file of the project changes. The project stays open
 * (on TypeScript 7, its compiler process keeps the program and reads again only what changed).
 *
 * The files are watched with chokidar, not Node's recursive `fs.watch`: on Linux, Node 20's and
 * 22's recursive watch stop reporting a file once it has been replaced by a rename (an atomic
 * save: `sed -i`, most editors' write-then-rename), so the first such save rebuilt and the next
 * ones were never seen. chokidar watches each folder, and reports a file replaced that way as
 * changed (its `atomic` handling). TypeScript 7's own watch is no alternative: its API has none,
 * and its `tsc --watch` tells no other process when it has emitted; one watcher serves both
 * TypeScripts.
 */
import * as path from "node:path";
import { watch } from "chokidar";
import type { FileChanges, Session } from "../transformer/session";

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
  const changes = new Map<string, keyof FileChanges>();
  let timer: NodeJS.Timeout | undefined;
  let running = Promise.resolve();
  const stamp = () => new Date().toLocaleTimeString("en-GB");
  const outDir = (session.compilerOptions as { outDir?: unknown }).outDir;
  const output = typeof outDir === "string" ? path.resolve(root, outDir) : undefined;
  const within = (file: string, folder: string) => file === folder || file.startsWith(folder + path.sep);
  // Folders not to descend into: dependencies, version control, the build's own output.
  const ignored = (file: string) =>
    /(?:^|[\\/])(?:node_modules|\.git)(?:[\\/]|$)/.test(file) || (output !== undefined && within(file, output));
  const watcher = watch(root, { ignoreInitial: true, ignored });
  const ready = new Promise<void>((resolve) => watcher.once("ready", () => resolve()));
  const cycle = (first: boolean) => {
    running = running.then(async () => {
      if (!first) {
        const files = [...changes.keys()];
        const changed: FileChanges = { changed: [], created: [], deleted: [] };
        for (const [file, kind] of changes) changed[kind].push(file);
        changes.clear();
        process.stdout.write(
          `[${stamp()}] File change detected (${files.map((f) => path.relative(process.cwd(), f)).join(", ")}): ${again} again.\n`,
        );
        session.update(changed);
      }
      try {
        await once();
      } catch (error) {
        process.stdout.write(`typemcp: ${error instanceof Error ? error.message : String(error)}\n`);
      }
      // Said once the watcher sees every folder: a change from then on is built.
      await ready;
      process.stdout.write(`[${stamp()}] Watching for file changes.\n`);
    });
  };
  const KIND = { add: "created", change: "changed", unlink: "deleted" } as const;
  watcher.on("all", (event, name) => {
    if (!(event in KIND)) return;
    const file = path.resolve(root, name);
    if (!RELEVANT.test(file)) return;
    // A file created then changed before the build is still new to the program.
    if (!(changes.get(file) === "created" && event === "change")) changes.set(file, KIND[event as keyof typeof KIND]);
    clearTimeout(timer);
    timer = setTimeout(() => cycle(false), 100);
  });
  cycle(true);
  return new Promise((resolve) => {
    const stop = () => {
      clearTimeout(timer);
      void watcher
        .close()
        .then(() => session.close())
        .then(() => resolve(0));
    };
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
}
