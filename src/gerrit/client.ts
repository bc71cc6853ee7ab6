import type { z } from 'zod';
import { type CallOptions, GerritError, GerritHttp, type GerritHttpOptions } from './http.ts';
import {
  ChangeInfo,
  ChangeMessageInfo,
  CommentInfoMap,
  CommitInfo,
  DiffInfo,
  FileInfoMap,
  type ReviewInput,
  ReviewResult,
} from './schema.ts';
import { encodeSegment } from './utils.ts';

export type GerritClientOptions = GerritHttpOptions;

/** Compare against another patchset instead of the parent (`base` query parameter). */
export interface BaseOption {
  /** A patchset number or revision sha of the same change. */
  base?: string | number;
}

/**
 * The Gerrit REST calls we make (https://gerrit-review.googlesource.com/Documentation/rest-api-changes.html).
 * `changeId` is best `project~number` (see `changeIdOf`); `revision` is a sha, a patchset
 * number or `current`. Every id and path is URL-encoded here.
 */
export class GerritClient {
  readonly http: GerritHttp;

  constructor(options: GerritClientOptions) {
    this.http = new GerritHttp(options);
  }

  /** The change with its current revision (fetch ref, commit, files) and its messages. */
  getChange(changeId: string): Promise<ChangeInfo> {
    const options = ['CURRENT_REVISION', 'CURRENT_COMMIT', 'CURRENT_FILES', 'MESSAGES'].map((o) => `o=${o}`);
    return this.get(`changes/${encodeSegment(changeId)}?${options.join('&')}`, ChangeInfo);
  }

  /** The commit of a revision (its parents tell whether a base is the parent). */
  getCommit(changeId: string, revision: string | number): Promise<CommitInfo> {
    return this.get(`${this.revisionPath(changeId, revision)}/commit`, CommitInfo);
  }

  /** Files of a revision against its parent, or against `base`; includes `/COMMIT_MSG`. */
  listFiles(changeId: string, revision: string | number, options: BaseOption = {}): Promise<FileInfoMap> {
    return this.get(`${this.revisionPath(changeId, revision)}/files/${baseQuery(options)}`, FileInfoMap);
  }

  /** One file's DiffInfo (`path` is the new path, or the old one of a deleted file). */
  getDiff(
    changeId: string,
    revision: string | number,
    path: string,
    options: BaseOption = {},
  ): Promise<DiffInfo> {
    return this.get(`${this.filePath(changeId, revision, path)}/diff${baseQuery(options)}`, DiffInfo);
  }

  /** A file's text at a revision (Gerrit sends it base64-encoded). */
  getFileContent(changeId: string, revision: string | number, path: string): Promise<string> {
    return this.http.base64(`${this.filePath(changeId, revision, path)}/content`);
  }

  listMessages(changeId: string): Promise<ChangeMessageInfo[]> {
    return this.get(`changes/${encodeSegment(changeId)}/messages`, ChangeMessageInfo.array());
  }

  /** Published comments of a revision, path → comments. */
  listComments(changeId: string, revision: string | number): Promise<CommentInfoMap> {
    return this.get(`${this.revisionPath(changeId, revision)}/comments/`, CommentInfoMap);
  }

  /**
   * Posts a review (message, labels, comments) on a revision. Pass `retries: 0` when the caller
   * checks between attempts whether an earlier attempt landed (see publish/).
   */
  async postReview(
    changeId: string,
    revision: string | number,
    input: ReviewInput,
    call: CallOptions = {},
  ): Promise<ReviewResult> {
    const path = `${this.revisionPath(changeId, revision)}/review`;
    return this.parse('POST', path, await this.http.json('POST', path, input, call), ReviewResult);
  }

  private revisionPath(changeId: string, revision: string | number): string {
    return `changes/${encodeSegment(changeId)}/revisions/${encodeSegment(revision)}`;
  }

  private filePath(changeId: string, revision: string | number, path: string): string {
    return `${this.revisionPath(changeId, revision)}/files/${encodeSegment(path)}`;
  }

  private async get<S extends z.ZodType>(path: string, schema: S): Promise<z.infer<S>> {
    return this.parse('GET', path, await this.http.json('GET', path), schema);
  }

  /** The border check: a response that does not fit the schema is an error naming the endpoint. */
  private parse<S extends z.ZodType>(method: string, path: string, value: unknown, schema: S): z.infer<S> {
    const result = schema.safeParse(value);
    if (result.success) return result.data;
    const where = result.error.issues[0];
    const detail = where === undefined ? '' : ` at ${where.path.join('.') || '(root)'}: ${where.message}`;
    throw new GerritError(
      'GERRIT_ERROR',
      this.http.endpoint(method, path),
      200,
      `unexpected response${detail}`,
    );
  }
}

function baseQuery(options: BaseOption): string {
  return options.base === undefined ? '' : `?base=${encodeSegment(options.base)}`;
}
