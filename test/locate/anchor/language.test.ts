import { describe, expect, it } from 'vitest';
import { type CodeLanguage, languageOfPath } from '../../../src/locate/anchor/index.ts';

describe('languageOfPath', () => {
  it.each<[string, CodeLanguage | null]>([
    ['src/main/java/com/example/billing/Invoice.java', 'java'],
    ['shop/cart.py', 'python'],
    ['src/cart.ts', 'typescript'],
    ['src/cart.mts', 'typescript'],
    ['src/cart.cts', 'typescript'],
    ['src/App.tsx', 'tsx'],
    ['src/cart.js', 'javascript'],
    ['src/cart.mjs', 'javascript'],
    ['src/cart.cjs', 'javascript'],
    ['src/App.jsx', 'javascript'],
    ['cmd/shop/main.go', 'go'],
    ['src/main/kotlin/OrderService.kt', 'kotlin'],
    ['C:\\ws\\src\\Cart.JAVA', 'java'],
    ['src/types.d.ts', 'typescript'],
    ['build.gradle.kts', null],
    ['README.md', null],
    ['Makefile', null],
    ['.ts', null],
    ['src.ts/notes', null],
  ])('%s → %s', (path, language) => {
    expect(languageOfPath(path)).toBe(language);
  });
});
