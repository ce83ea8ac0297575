import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { completeFilePath } from '../../../src/runtime/attachments/file-completion';

// README.md, "Files and images": `@path` completes files under the working directory, leaving
// out what a .gitignore ignores, the working directory's and those of the folders below it.
function tree(): string {
  const root = mkdtempSync(path.join(os.tmpdir(), 'aish-at-'));
  mkdirSync(path.join(root, 'src', 'gen'), { recursive: true });
  writeFileSync(path.join(root, '.gitignore'), 'dist/\n*.log\n');
  writeFileSync(path.join(root, 'notes.md'), 'notes');
  writeFileSync(path.join(root, 'run.log'), 'log');
  mkdirSync(path.join(root, 'dist'));
  writeFileSync(path.join(root, 'src', '.gitignore'), 'gen/\nsecret.txt\n');
  writeFileSync(path.join(root, 'src', 'main.ts'), 'code');
  writeFileSync(path.join(root, 'src', 'secret.txt'), 'x');
  writeFileSync(path.join(root, 'src', 'debug.log'), 'x');
  return root;
}

describe('@path completion', () => {
  it("leaves out what the working directory's .gitignore ignores", () => {
    expect(completeFilePath(tree(), '')).toEqual(['notes.md', 'src/']);
  });

  it('applies a nested .gitignore to the paths below it, the outer one too', () => {
    expect(completeFilePath(tree(), 'src/')).toEqual(['src/main.ts']);
  });

  it('never lists outside the working directory', () => {
    const root = tree();
    expect(completeFilePath(root, '../')).toEqual([]);
    expect(completeFilePath(root, '/etc/')).toEqual([]);
    expect(completeFilePath(root, '~/')).toEqual([]);
  });
});
