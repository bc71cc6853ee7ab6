/**
 * Reports print paths as the runtime saw them: Windows paths, file:// and http URLs, webpack
 * URLs. Normalising them here gives the locator one shape to map onto the repository.
 */
export function normaliseReportPath(raw: string): { file: string; changed: boolean } {
  let path = raw.trim().replace(/\\/g, '/');
  path = stripUrl(path);
  path = path.replace(/^\/?[A-Za-z]:\//, '');
  path = path.replace(/\/{2,}/g, '/');
  path = path.replace(/^(?:\.\/)+/, '');
  return { file: path, changed: path !== raw };
}

function stripUrl(path: string): string {
  const file = /^file:\/\/(?:localhost)?(\/[^?#]*)/i.exec(path);
  if (file?.[1] !== undefined) return decodePercent(file[1]);
  const webpack = /^webpack:\/\/[^/]*\/([^?#]*)/i.exec(path);
  if (webpack?.[1] !== undefined) return webpack[1];
  const http = /^https?:\/\/[^/?#]*\/?([^?#]*)/i.exec(path);
  if (http?.[1] !== undefined) return fromWebPath(decodePercent(http[1]));
  return path;
}

/** Vite serves files outside the web root as `/@fs/<absolute path>`: give the absolute path back. */
function fromWebPath(path: string): string {
  return path.startsWith('@fs/') ? path.slice('@fs'.length) : path;
}

/** URLs escape spaces and the like; a malformed escape is left as printed rather than failing. */
function decodePercent(path: string): string {
  try {
    return decodeURI(path);
  } catch {
    return path;
  }
}
