import { describe, expect, it } from 'vitest';
import { normaliseReportPath } from '../../../scraper/stack/index.ts';

describe('normaliseReportPath', () => {
  it.each([
    ['C:\\ci\\ws\\src\\cart.js', 'ci/ws/src/cart.js'],
    ['c:/ci/ws/src/cart.js', 'ci/ws/src/cart.js'],
    ['file:///tmp/stackgen/vt/src/cart.ts', '/tmp/stackgen/vt/src/cart.ts'],
    ['file:///C:/ci/ws/src/cart.js', 'ci/ws/src/cart.js'],
    ['file:///home/u/my%20app/x.js', '/home/u/my app/x.js'],
    ['file:///home/u/bad%zzescape.js', '/home/u/bad%zzescape.js'],
    ['webpack://shop-ui/./src/app.ts', 'src/app.ts'],
    ['webpack:///./src/app.ts', 'src/app.ts'],
    ['webpack:///src/app.ts?5a1f', 'src/app.ts'],
    ['http://localhost:5173/src/app.js?v=3', 'src/app.js'],
    ['https://ci.example.com:8443/static/js/main.js#L3', 'static/js/main.js'],
    ['http://localhost:5173/@fs/home/u/proj/src/a.ts', '/home/u/proj/src/a.ts'],
    ['./src/cart.ts', 'src/cart.ts'],
    ['src//cart.ts', 'src/cart.ts'],
    ['\\\\server\\share\\x.py', '/server/share/x.py'],
  ])('%s → %s (changed)', (raw, file) => {
    expect(normaliseReportPath(raw)).toEqual({ file, changed: true });
  });

  it.each([
    '/home/jenkins/workspace/JOB/src/cart.ts',
    'com/example/billing/Invoice.java',
    'node:internal/modules/cjs/loader',
    '<anonymous>',
    'cart_test.go',
    '../../../work/main/node_modules/allure-vitest/src/matchers.ts',
  ])('%s is kept as is', (raw) => {
    expect(normaliseReportPath(raw)).toEqual({ file: raw, changed: false });
  });
});
