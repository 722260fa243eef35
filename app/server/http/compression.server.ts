// The settings for what is compressed once and sent many times: the kept public pages
// (page-cache.server.ts) and the build's assets (scripts/compress-assets.ts). Both take the
// slowest, smallest setting, since the cost is paid once and the saving on every answer.
import { constants } from "node:zlib";
import type { BrotliOptions, ZlibOptions } from "node:zlib";

/** Brotli at its best quality, tuned for text of `size` bytes. */
export function bestBrotli(size: number): BrotliOptions {
  return {
    params: {
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_SIZE_HINT]: size,
    },
  };
}

/** gzip at its best level. */
export const BEST_GZIP: ZlibOptions = { level: constants.Z_BEST_COMPRESSION };
