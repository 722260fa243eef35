// After `react-router build`: writes a Brotli (.br) and a gzip (.gz) copy of each script,
// stylesheet and SVG under build/client/assets, at the best compression
// (app/server/http/compression.server.ts), so the server sends them without compressing on every
// request (server.js). A copy no smaller than its file is not written. The names carry content
// hashes, so the copies never go stale.
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { brotliCompressSync, gzipSync } from "node:zlib";
import { BEST_GZIP, bestBrotli } from "~/server/http/compression.server";

const DIR = "build/client/assets";
const COMPRESSIBLE = new Set([".js", ".css", ".svg", ".json", ".map"]);
/** Below this the headers outweigh the saving. */
const MIN_BYTES = 1024;

let files = 0;
let before = 0;
let after = 0;
for (const name of readdirSync(DIR)) {
  const file = path.join(DIR, name);
  if (name.endsWith(".br") || name.endsWith(".gz")) {
    rmSync(file);
    continue;
  }
  if (!COMPRESSIBLE.has(path.extname(name))) continue;
  const content = readFileSync(file);
  if (content.length < MIN_BYTES) continue;
  const br = brotliCompressSync(content, bestBrotli(content.length));
  const gz = gzipSync(content, BEST_GZIP);
  if (br.length < content.length) writeFileSync(`${file}.br`, br);
  if (gz.length < content.length) writeFileSync(`${file}.gz`, gz);
  files += 1;
  before += content.length;
  after += br.length;
}
console.info(
  `Compressed ${files} assets ahead of time: ${(before / 1024).toFixed(0)} KB, ${(after / 1024).toFixed(0)} KB with Brotli.`,
);
