/**
 * Type-checks every ```ts block of README.md and packages/<name>/README.md against the workspace packages
 * (their sources, through the `@chatwire/source` condition). Each block is its own module, with the names in
 * `readme-code/prelude.d.ts` in scope. Before a block:
 * - `<!-- not-checked: reason -->` skips it (the reason is printed);
 * - `<!-- prelude: code -->` puts `code` before it (declarations a fragment assumes).
 * Run: `pnpm check:readme`. Exits 1 naming the README line of every error.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync, copyFileSync, existsSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

interface Block {
  readme: string;
  /** 1-based README line of the block's first code line. */
  line: number;
  code: string;
  prelude: string;
  skip: string | null;
}

function readmes(): string[] {
  const files = ['README.md'];
  for (const dir of readdirSync(join(root, 'packages')).sort()) {
    if (existsSync(join(root, 'packages', dir, 'README.md'))) files.push(join('packages', dir, 'README.md'));
  }
  return files;
}

export function extractBlocks(readme: string, text: string): Block[] {
  const lines = text.split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i += 1) {
    const open = /^(\s*)```(ts|typescript)\s*$/.exec(lines[i]!);
    if (!open) {
      // Skip over other fenced blocks so a ```ts inside them is not read.
      if (/^\s*```/.test(lines[i]!)) {
        const close = lines.findIndex((l, j) => j > i && /^\s*```\s*$/.test(l));
        if (close > i) i = close;
      }
      continue;
    }
    let end = i + 1;
    while (end < lines.length && !/^\s*```\s*$/.test(lines[end]!)) end += 1;
    let skip: string | null = null;
    let prelude = '';
    for (let j = i - 1; j >= 0; j -= 1) {
      const line = lines[j]!.trim();
      if (line === '') continue;
      const notChecked = /^<!--\s*not-checked:\s*(.*?)\s*-->$/.exec(line);
      const pre = /^<!--\s*prelude:\s*([\s\S]*?)\s*-->$/.exec(line);
      if (notChecked) skip = notChecked[1] || 'no reason given';
      else if (pre) prelude = `${pre[1]}\n${prelude}`;
      else break;
    }
    const indent = open[1]!.length;
    blocks.push({
      readme,
      line: i + 2,
      code: lines.slice(i + 1, end).map((l) => l.slice(Math.min(indent, l.length - l.trimStart().length))).join('\n'),
      prelude,
      skip,
    });
    i = end;
  }
  return blocks;
}

function main(): number {
  const blocks = readmes().flatMap((readme) => extractBlocks(readme, readFileSync(join(root, readme), 'utf8')));
  // Inside the monorepo's node_modules so the workspace packages resolve; git ignores it.
  const dir = mkdtempSync(join(root, 'node_modules', '.chatwire-readme-code-'));
  try {
    copyFileSync(join(root, 'scripts', 'readme-code', 'prelude.d.ts'), join(dir, 'prelude.d.ts'));
    const files = new Map<string, { block: Block; offset: number }>();
    blocks.forEach((block, index) => {
      if (block.skip !== null) return;
      const file = join(dir, `block-${String(index).padStart(3, '0')}.ts`);
      const prelude = block.prelude === '' ? '' : `${block.prelude.trimEnd()}\n`;
      writeFileSync(file, `${prelude}${block.code}\nexport {};\n`);
      files.set(file, { block, offset: prelude === '' ? 0 : prelude.split('\n').length - 1 });
    });

    const base = ts.getParsedCommandLineOfConfigFile(join(root, 'tsconfig.base.json'), {}, {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    });
    if (!base) throw new Error('cannot read tsconfig.base.json');
    const options: ts.CompilerOptions = { ...base.options, noEmit: true, declaration: false, sourceMap: false };
    const program = ts.createProgram([...files.keys(), join(dir, 'prelude.d.ts')], options);
    const failures = new Map<Block, string[]>();
    for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
      const source = diagnostic.file;
      const owner = source ? files.get(source.fileName) : undefined;
      const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
      if (!source || !owner) {
        // An error outside the blocks (a package's source or the prelude) is still an error of the check.
        const where = source ? `${relative(root, source.fileName)}:${source.getLineAndCharacterOfPosition(diagnostic.start ?? 0).line + 1}` : 'tsc';
        console.error(`${where}: error TS${diagnostic.code}: ${message}`);
        failures.set({ readme: where, line: 0, code: '', prelude: '', skip: null }, [message]);
        continue;
      }
      const { line } = source.getLineAndCharacterOfPosition(diagnostic.start ?? 0);
      const readmeLine = owner.block.line + line - owner.offset;
      const text = `${owner.block.readme}:${readmeLine}: error TS${diagnostic.code}: ${message}`;
      failures.set(owner.block, [...(failures.get(owner.block) ?? []), text]);
    }
    for (const block of blocks) {
      const where = `${block.readme}:${block.line}`;
      if (block.skip !== null) console.log(`skip ${where} (not-checked: ${block.skip})`);
      else if (failures.has(block)) console.log(`FAIL ${where}\n  ${failures.get(block)!.join('\n  ')}`);
      else console.log(`ok   ${where}`);
    }
    const checked = blocks.filter((b) => b.skip === null).length;
    const failed = blocks.filter((b) => failures.has(b)).length;
    const outside = failures.size - failed;
    const tail = outside > 0 ? ` (and ${outside} errors outside the blocks)` : '';
    console.log(`${checked - failed} passed, ${failed} failed, ${blocks.length - checked} skipped${tail}`);
    return failures.size === 0 ? 0 : 1;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) process.exitCode = main();
