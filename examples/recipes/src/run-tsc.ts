import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const cwd = fileURLToPath(new URL('..', import.meta.url));

/** Runs `tsc -p <project>` in this package; resolves with its diagnostics, one per line (empty: it passed). */
export function runTsc(project: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [tsc, '-p', project, '--pretty', 'false'], { cwd }, (error, stdout, stderr) => {
      if (stderr.trim()) return reject(new Error(stderr));
      if (error && !stdout.trim()) return reject(error);
      resolve(stdout.split('\n').filter((line) => /error TS\d+/.test(line)));
    });
  });
}
