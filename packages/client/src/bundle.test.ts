import { describe, expect, it } from 'vitest';
import { measureBundle } from '../scripts/size.js';

describe('the published bundle', () => {
  it('has no runtime import (not even ai), no node: built-ins and no Buffer', async () => {
    const bundle = await measureBundle();
    expect(bundle.imports).toEqual([]);
    expect(bundle.code).not.toMatch(/\bBuffer\b|node:|require\(/);
    expect(bundle.gzipBytes).toBeGreaterThan(1000);
  });
});
