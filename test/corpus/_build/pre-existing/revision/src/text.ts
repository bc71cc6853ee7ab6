/** URL slug: lower case, words joined by single hyphens, only [a-z0-9-]. */
export function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** Title Case for headings: first letter of each word upper case. */
export function titleCase(text: string): string {
  return text
    .split(/\s+/)
    .filter((word) => word.length > 0)
    .map((word) => word[0].toUpperCase() + word.slice(1).toLowerCase())
    .join(' ');
}

/** The first `max` words of a text, with an ellipsis when words were dropped. */
export function truncateWords(text: string, max: number): string {
  const words = text.split(/\s+/).filter((word) => word.length > 0);
  return words.length <= max ? words.join(' ') : `${words.slice(0, max).join(' ')} …`;
}
