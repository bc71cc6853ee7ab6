import { readdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { DiagnosisError, describeError } from '../../../src/errors/index.ts';
import type { Fetched, ReportSource } from '../../source/report-source.ts';
import { decodeBytes } from '../../text/index.ts';

/** One XML file of the report: how to ask the source for it, and the URL that names it. */
export interface ReportFile {
  relative: string;
  url: string;
}

/**
 * The XML files a JUnit input stands for. A file (on disk or a URL ending in .xml) is itself;
 * a folder is its top-level `*.xml` files (Surefire's `target/surefire-reports/`, Gradle's
 * `build/test-results/test/`), read from disk or from the HTTP server's directory listing
 * (nginx autoindex, Jenkins artifacts), in name order so issue order is stable.
 */
export async function reportFiles(source: ReportSource): Promise<{ files: ReportFile[]; folder: boolean }> {
  if (!source.rootUrl.endsWith('/')) return { files: [{ relative: '', url: source.rootUrl }], folder: false };
  if (source.isHttp && source.displayUrl !== new URL('index.html', source.rootUrl).href) {
    return { files: [{ relative: source.displayUrl, url: source.displayUrl }], folder: false };
  }
  const files = source.isHttp ? await listHttp(source) : await listDisk(source.rootUrl);
  return {
    files: files
      .filter((file) => file.url.toLowerCase().endsWith('.xml'))
      .sort((a, b) => (a.url < b.url ? -1 : a.url > b.url ? 1 : 0)),
    folder: true,
  };
}

async function listDisk(rootUrl: string): Promise<ReportFile[]> {
  const dir = fileURLToPath(rootUrl);
  try {
    const entries = await readdir(dir, { withFileTypes: true });
    return entries
      .filter((e) => e.isFile())
      .map((e) => ({ relative: e.name, url: new URL(encodeURIComponent(e.name), rootUrl).href }));
  } catch (err: unknown) {
    throw new DiagnosisError('INPUT_NOT_FOUND', `folder ${dir} could not be listed: ${describeError(err)}`, {
      input: dir,
      cause: err,
    });
  }
}

/**
 * File links of a directory listing page. Listings are HTML, not the report, so the links are
 * picked out of `href` attributes; only same-folder links count.
 */
async function listHttp(source: ReportSource): Promise<ReportFile[]> {
  const page = await source.tryGet(source.rootUrl);
  if (page === null) {
    throw new DiagnosisError('INPUT_NOT_FOUND', `report folder ${source.rootUrl} answered 404 Not Found`, {
      input: source.rootUrl,
    });
  }
  const html = decodeBytes(page.body).text;
  const names = new Set<string>();
  for (const match of html.matchAll(/href\s*=\s*["']([^"'?#]+)["']/gi)) {
    const href = match[1] ?? '';
    const resolved = new URL(href, source.rootUrl);
    if (!resolved.href.startsWith(source.rootUrl)) continue;
    const rest = resolved.href.slice(source.rootUrl.length);
    if (rest !== '' && !rest.includes('/')) names.add(rest);
  }
  return [...names].map((name) => ({ relative: name, url: new URL(name, source.rootUrl).href }));
}

/** Reads one report file; a missing one is INPUT_NOT_FOUND naming it, on disk and over HTTP alike. */
export async function readReportFile(source: ReportSource, file: ReportFile): Promise<Fetched> {
  const fetched = await source.tryGet(file.relative).catch((err: unknown) => {
    if (err instanceof DiagnosisError) throw err;
    throw new DiagnosisError(
      'INPUT_NOT_FOUND',
      `JUnit report ${file.url} could not be read: ${describeError(err)}`,
      {
        input: file.url,
        cause: err,
      },
    );
  });
  if (fetched === null) {
    throw new DiagnosisError('INPUT_NOT_FOUND', `JUnit report ${file.url} does not exist (404 Not Found)`, {
      input: file.url,
    });
  }
  return fetched;
}
