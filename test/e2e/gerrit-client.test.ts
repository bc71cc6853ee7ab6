import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeIdOf, GerritClient, GerritDiffSource } from '../../src/gerrit/index.ts';
import { GitDiffSource, GitObjects } from '../../src/git/index.ts';
import { type GerritServer, startGerrit } from '../helpers/gerrit-server.ts';
import { TempRepo } from '../helpers/git-repo.ts';

const numbered = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => `line ${from + i} of the file`);
const text = (lines: string[]) => `${lines.join('\n')}\n`;

// The base commit, then a change on it that inserts, deletes and replaces lines, adds, deletes
// and renames files: both diff sources must see the same hunks.
const BASE_FILES = {
  'src/edited.ts': text(numbered(1, 30)),
  'src/gone.ts': text(['to be deleted', 'entirely']),
  'src/old-name.ts': text(numbered(100, 120)),
  'docs/keep.md': text(['# unchanged']),
  'src/tail.ts': 'first\nlast\n',
};
const EDITED = [
  'inserted at the top',
  ...numbered(1, 4),
  // 5..7 deleted
  ...numbered(8, 12),
  'inserted after 12 (a)',
  'inserted after 12 (b)',
  ...numbered(13, 19),
  'replacement for 20',
  'replacement for 21',
  'extra replacement line',
  ...numbered(22, 29),
  // 30 deleted at the end
];

describe('GerritClient against a real Gerrit', () => {
  let gerrit: GerritServer;
  let client: GerritClient;
  let repo: TempRepo;
  const project = `client-${randomBytes(3).toString('hex')}`;
  let changeNumber = 0;
  let baseSha = '';
  let changeSha = '';

  beforeAll(async () => {
    gerrit = await startGerrit();
    client = new GerritClient({ baseUrl: gerrit.url, username: gerrit.user, password: gerrit.password });
    await client.http.request('PUT', `projects/${project}`, { create_empty_commit: true });

    repo = new TempRepo();
    const remote = `http://${gerrit.user}:${gerrit.password}@${gerrit.url.slice('http://'.length)}a/${project}`;
    repo.git('fetch', '-q', remote, 'master');
    repo.git('reset', '-q', '--hard', 'FETCH_HEAD');
    baseSha = repo.commit(BASE_FILES, `Add base files\n\nChange-Id: I${randomBytes(20).toString('hex')}\n`);
    repo.git('mv', 'src/old-name.ts', 'src/new-name.ts');
    changeSha = repo.commit(
      {
        'src/edited.ts': text(EDITED),
        'src/gone.ts': null,
        'src/added.ts': text(['brand', 'new']),
        'src/empty.ts': '',
        'src/tail.ts': 'first\nchanged, no newline at the end',
      },
      `Edit files\n\nChange-Id: I${randomBytes(20).toString('hex')}\n`,
    );
    // Both commits become changes; the second one's parent is the first.
    repo.git('push', '-q', remote, 'HEAD:refs/for/master');
    const [listed] = (await client.http.json('GET', `changes/?q=commit:${changeSha}`)) as {
      _number: number;
    }[];
    changeNumber = listed?._number ?? 0;
  }, 300_000);

  afterAll(async () => {
    repo?.remove();
    await gerrit?.stop();
  }, 60_000);

  it('gets the change with its current revision, fetch ref, parent and files', async () => {
    const change = await client.getChange(changeIdOf(project, changeNumber));

    expect(change).toMatchObject({ project, branch: 'master', _number: changeNumber, subject: 'Edit files' });
    expect(change.current_revision).toBe(changeSha);
    const revision = change.revisions?.[changeSha];
    expect(revision?.ref).toBe(
      `refs/changes/${String(changeNumber % 100).padStart(2, '0')}/${changeNumber}/1`,
    );
    expect(revision?.commit?.parents).toEqual([{ commit: baseSha }]);
    expect(Object.keys(revision?.files ?? {}).sort()).toEqual([
      'src/added.ts',
      'src/edited.ts',
      'src/empty.ts',
      'src/gone.ts',
      'src/new-name.ts',
      'src/tail.ts',
    ]);
    expect(change.messages?.map((m) => m._revision_number)).toEqual([1]);
  });

  it('lists files and reads file content', async () => {
    const id = changeIdOf(project, changeNumber);

    const files = await client.listFiles(id, changeSha);
    const content = await client.getFileContent(id, changeSha, 'src/edited.ts');

    expect(files['/COMMIT_MSG']).toBeDefined();
    expect(files['src/gone.ts']?.status).toBe('D');
    expect(files['src/added.ts']?.status).toBe('A');
    expect(files['src/new-name.ts']).toMatchObject({ status: 'R', old_path: 'src/old-name.ts' });
    expect(content).toBe(text(EDITED));
  });

  it('gives exactly the hunks git gives for the same commits', async () => {
    const gerritDiff = new GerritDiffSource(client, changeIdOf(project, changeNumber));
    const gitDiff = new GitDiffSource(await GitObjects.openLocal(repo.dir));

    const fromGerrit = await gerritDiff.diff(baseSha, changeSha);
    const fromGit = await gitDiff.diff(baseSha, changeSha);

    const byPath = (a: { newPath: string | null; oldPath: string | null }, b: typeof a) =>
      (a.newPath ?? a.oldPath ?? '').localeCompare(b.newPath ?? b.oldPath ?? '');
    expect(fromGerrit.sort(byPath)).toEqual(fromGit.sort(byPath));
    expect(fromGerrit.find((f) => f.newPath === 'src/edited.ts')?.hunks).toEqual([
      { oldStart: 0, oldLines: 0, newStart: 1, newLines: 1 },
      { oldStart: 5, oldLines: 3, newStart: 5, newLines: 0 },
      { oldStart: 12, oldLines: 0, newStart: 11, newLines: 2 },
      { oldStart: 20, oldLines: 2, newStart: 20, newLines: 3 },
      { oldStart: 30, oldLines: 1, newStart: 30, newLines: 0 },
    ]);
    expect(fromGerrit.find((f) => f.newPath === 'src/tail.ts')?.hunks).toEqual([
      { oldStart: 2, oldLines: 1, newStart: 2, newLines: 1 },
    ]);
    expect(fromGerrit.find((f) => f.newPath === 'src/empty.ts')).toEqual({
      oldPath: null,
      newPath: 'src/empty.ts',
      status: 'added',
      hunks: [],
    });
  });

  it('names the endpoint of a missing change', async () => {
    await expect(client.getChange(changeIdOf(project, 99_999))).rejects.toMatchObject({
      code: 'GERRIT_NOT_FOUND',
      status: 404,
      endpoint: `GET /a/changes/${project}~99999`,
    });
  });
});
