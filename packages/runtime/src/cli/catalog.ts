// npm run catalog -- import FILE.csv [--dry-run]: a shop's catalog from a CSV file
// (docs/catalog.md). Reads DATABASE_URL and REDIS_URL like the bot; exits 1 when the file is
// refused (nothing changed) or a product changed meanwhile.
import path from "node:path";
import { loadEnvFiles } from "@orderbot/platform";
import { catalogCommand } from "./catalog-command.ts";

loadEnvFiles(path.resolve(import.meta.dirname, "../../../.."), process.env);
const { code, out, err } = await catalogCommand(
  process.argv.slice(2),
  process.env,
  process.env.INIT_CWD ?? process.cwd(),
);
const write = (stream: NodeJS.WriteStream, lines: string[]) =>
  new Promise((resolve) => stream.write(lines.map((line) => `${line}\n`).join(""), resolve));
await write(process.stdout, out);
await write(process.stderr, err);
// A Redis connection closed before it was ready can keep a socket open; the command is done.
process.exit(code);
