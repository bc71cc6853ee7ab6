import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../src/log.ts';

describe('createLogger', () => {
  it('redacts secrets wherever configuration and requests put them', () => {
    const lines: string[] = [];
    const destination = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const log = createLogger({ level: 'info', destination });
    log.info(
      {
        gerrit: { password: 'pw-1', webhookSecret: 'hook-2' },
        apiKey: 'key-3',
        headers: { authorization: 'Basic abc' },
        config: { model: { apiKey: 'key-4' } },
      },
      'secrets',
    );
    const text = lines.join('');
    for (const secret of ['pw-1', 'hook-2', 'key-3', 'Basic abc', 'key-4'])
      expect(text).not.toContain(secret);
    expect(text).toContain('[redacted]');
  });
});
