import { ADMIN_PATHS, REGULAR_PATHS } from '@ads/contracts';
import { describe, expect, it } from 'vitest';
import { firstScreenPath, guardRedirect } from './guard';

describe('guardRedirect (SPEC.md §2)', () => {
  it('sends every path to /login without a token, and lets /login render', () => {
    for (const p of ['/', '/index', '/sys/role', '/admin/index', '/nope', '/404']) expect(guardRedirect(p, '', [])).toBe('/login');
    expect(guardRedirect('/login', '', [])).toBeNull();
  });

  it('sends /login to / with a token', () => {
    expect(guardRedirect('/login', 't', REGULAR_PATHS)).toBe('/');
  });

  it('sends / to the first permitted screen, or /404 when there is none', () => {
    expect(guardRedirect('/', 't', REGULAR_PATHS)).toBe('/index');
    expect(guardRedirect('/', 't', ADMIN_PATHS)).toBe('/admin/index');
    expect(guardRedirect('/', 't', ['/sys', '/sys/role'])).toBe('/sys/role');
    expect(guardRedirect('/', 't', [])).toBe('/404');
    expect(guardRedirect('/', 't', ['/sys'])).toBe('/404');
    expect(guardRedirect('/', 't', ['/not-a-route'])).toBe('/404');
  });

  it('sends paths outside the permitted list to /404, and renders permitted ones', () => {
    expect(guardRedirect('/sys/accounts', 't', ['/sys', '/sys/role'])).toBe('/404');
    expect(guardRedirect('/admin/index', 't', REGULAR_PATHS)).toBe('/404');
    expect(guardRedirect('/index', 't', ADMIN_PATHS)).toBe('/404');
    expect(guardRedirect('/unknown/page', 't', REGULAR_PATHS)).toBe('/404');
    expect(guardRedirect('/sys/role', 't', ['/sys', '/sys/role'])).toBeNull();
    expect(guardRedirect('/sys/role/', 't', ['/sys', '/sys/role'])).toBeNull();
    expect(guardRedirect('/404', 't', [])).toBeNull();
  });

  it('sends a menu group to its first permitted screen', () => {
    expect(guardRedirect('/sys', 't', REGULAR_PATHS)).toBe('/sys/accounts');
    expect(guardRedirect('/sys', 't', ['/sys', '/sys/role'])).toBe('/sys/role');
    expect(guardRedirect('/admin', 't', ADMIN_PATHS)).toBe('/admin/index');
    expect(guardRedirect('/admin', 't', REGULAR_PATHS)).toBe('/404');
    expect(guardRedirect('/sys', 't', ['/index'])).toBe('/404');
    expect(guardRedirect('/admin/order', 't', ADMIN_PATHS)).toBe('/admin/order/list');
  });

  it('picks hidden screens too when they come first', () => {
    expect(firstScreenPath(['/advertising', '/advertising/campaign'])).toBe('/advertising/campaign');
  });
});
