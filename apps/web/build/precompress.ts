import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

// Text types only: images and fonts are already compressed.
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt)$/;

async function* walk(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(full);
    else if (COMPRESSIBLE.test(entry.name)) yield full;
  }
}

/**
 * Writes `<file>.br` and `<file>.gz` beside every text asset of the build, at the highest levels: the work
 * is done once here instead of on every request, and the server (`@fastify/static` with `preCompressed`)
 * picks the sibling that the browser's Accept-Encoding allows. A sibling that would not be smaller is not
 * written, so the server falls back to the plain file.
 */
export function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'loyalty:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = join(config.root, config.build.outDir);
    },
    async closeBundle() {
      const jobs: Promise<void>[] = [];
      for await (const file of walk(outDir)) {
        jobs.push(
          (async () => {
            const [source, info] = await Promise.all([readFile(file), stat(file)]);
            const [br, gzipped] = await Promise.all([
              brotli(source, {
                params: {
                  [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
                  [constants.BROTLI_PARAM_SIZE_HINT]: info.size,
                },
              }),
              gz(source, { level: constants.Z_BEST_COMPRESSION }),
            ]);
            if (br.length < source.length) await writeFile(`${file}.br`, br);
            if (gzipped.length < source.length) await writeFile(`${file}.gz`, gzipped);
          })(),
        );
      }
      await Promise.all(jobs);
    },
  };
}
