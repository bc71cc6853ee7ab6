import { describe, expect, it } from 'vitest';
import { slugify, titleCase } from '../src/text';

describe('slugify', () => {
  it('joins words with hyphens', () => {
    expect(slugify('Hello, World!')).toBe('hello-world');
  });

  it('keeps digits', () => {
    expect(slugify('Top 10 Recipes 2026')).toBe('top-10-recipes-2026');
  });

  it('transliterates accented letters', () => {
    expect(slugify('Crème Brûlée à la Maison')).toBe('creme-brulee-a-la-maison');
  });
});

describe('titleCase', () => {
  it('capitalises each word', () => {
    expect(titleCase('the  quick brown FOX')).toBe('The Quick Brown Fox');
  });
});
