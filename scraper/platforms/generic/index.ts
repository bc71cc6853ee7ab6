import type { ReportSource } from '../../source/report-source.ts';
import { charsetOf, decodeBytes } from '../../text/index.ts';
import type { PlatformAdapter } from '../types.ts';
import type { GenericPlatformConfig } from './config.ts';
import { scrapeGeneric } from './scrape.ts';

export {
  GenericPlatformConfig,
  loadPlatformConfig,
  parsePlatformConfig,
} from './config.ts';

/** An adapter for one configured three-level platform (config/platforms/*.json). */
export function createGenericAdapter(config: GenericPlatformConfig): PlatformAdapter {
  return {
    platform: 'generic',
    modes: ['dom'],
    detect: (source) => detectPlatform(config, source),
    scrape: (ctx) => scrapeGeneric(config, ctx),
  };
}

/** URL patterns first (free), then the marker in the summary page's HTML (one request). */
async function detectPlatform(config: GenericPlatformConfig, source: ReportSource): Promise<boolean> {
  const { url, marker } = config.match;
  const patterns = url === undefined ? [] : Array.isArray(url) ? url : [url];
  const urls = [source.rootUrl, source.displayUrl];
  if (patterns.length > 0 && !patterns.some((p) => urls.some((u) => new RegExp(p, 'i').test(u))))
    return false;
  if (marker === undefined) return true;
  const page = await source.tryGet(config.summary.path);
  if (page === null) return false;
  return new RegExp(marker, 'i').test(decodeBytes(page.body, charsetOf(page.contentType)).text);
}
