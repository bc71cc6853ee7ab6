import { describe, expect, it } from 'vitest';
import { slugify, titleCase, truncateWords } from '../src/text';

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

describe('truncateWords', () => {
  it('keeps short texts whole', () => {
    expect(truncateWords('one two', 3)).toBe('one two');
  });

  it('cuts long texts after max words', () => {
    expect(truncateWords('one two three four', 2)).toBe('one two …');
  });
});
