import type { Page } from 'playwright-core';
import { describeError } from '../../../src/errors/index.ts';
import type { RawAttachment } from '../../raw.ts';
import { charsetOf } from '../../text/index.ts';
import type { FoldedLog, LinkedLog } from './config.ts';
import { extractPage, extractRows, SELF, waitForText } from './dom.ts';

/**
 * Logs of a detail page, as attachments. Linked files are fetched through the page's own
 * request context (same cookies as the page) and kept as raw bytes: internal CI logs are often
 * GBK, and only the facts builder decodes, with the served charset as a hint.
 */
export async function readLogs(
  page: Page,
  logs: ReadonlyArray<FoldedLog | LinkedLog>,
  timeoutMs: number,
  warnings: string[],
): Promise<RawAttachment[]> {
  const attachments: RawAttachment[] = [];
  for (const log of logs) {
    if ('toggle' in log) {
      const folded = await readFoldedLog(page, log, timeoutMs, warnings);
      if (folded !== null) attachments.push(folded);
    } else {
      attachments.push(...(await readLinkedLogs(page, log, timeoutMs)));
    }
  }
  return attachments;
}

/** Clicks the toggle and reads what it reveals; the text is already decoded by the browser. */
async function readFoldedLog(
  page: Page,
  log: FoldedLog,
  timeoutMs: number,
  warnings: string[],
): Promise<RawAttachment | null> {
  const toggle = page.locator(log.toggle).first();
  if ((await toggle.count()) === 0) {
    warnings.push(`log "${log.name}" not shown: no toggle "${log.toggle}" on ${page.url()}`);
    return null;
  }
  try {
    await toggle.click({ timeout: timeoutMs });
    await waitForText(page, log.content, timeoutMs);
    const { text } = await extractPage(page, { text: { css: log.content, take: 'text' } });
    return {
      name: log.name,
      media_type: 'text/plain',
      body: Buffer.from(text ?? '', 'utf8'),
      declared_charset: 'utf-8',
    };
  } catch (err: unknown) {
    const error = `log "${log.name}" could not be unfolded with "${log.toggle}": ${describeError(err)}`;
    return { name: log.name, media_type: null, body: null, error };
  }
}

async function readLinkedLogs(page: Page, log: LinkedLog, timeoutMs: number): Promise<RawAttachment[]> {
  const links = await extractRows(page, log.link, {
    url: { css: SELF, take: 'href' },
    text: { css: SELF, take: 'text' },
  });
  const attachments: RawAttachment[] = [];
  for (const link of links) {
    if (link.url === null) continue;
    attachments.push(
      await fetchRaw(page, link.url, log.name ?? (link.text || fileName(link.url)), timeoutMs),
    );
  }
  return attachments;
}

async function fetchRaw(page: Page, url: string, name: string, timeoutMs: number): Promise<RawAttachment> {
  try {
    const response = await page.request.get(url, { timeout: timeoutMs, failOnStatusCode: false });
    if (!response.ok()) {
      return { name, media_type: null, body: null, error: `${url} answered HTTP ${response.status()}` };
    }
    const contentType = response.headers()['content-type'] ?? null;
    const attachment: RawAttachment = {
      name,
      media_type: mediaType(contentType),
      body: await response.body(),
    };
    const charset = charsetOf(contentType);
    return charset === undefined ? attachment : { ...attachment, declared_charset: charset };
  } catch (err: unknown) {
    return {
      name,
      media_type: null,
      body: null,
      error: `${url} could not be fetched: ${describeError(err)}`,
    };
  }
}

function mediaType(contentType: string | null): string | null {
  const type = contentType?.split(';')[0]?.trim().toLowerCase();
  return type === undefined || type === '' ? null : type;
}

function fileName(url: string): string {
  const last = new URL(url).pathname.split('/').filter(Boolean).pop();
  return last === undefined ? url : decodeURIComponent(last);
}
