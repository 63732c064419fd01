import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { endpoints } from '@ads/contracts';
import { useSession } from '@/stores/session-store';
import { useSettings } from '@/stores/settings-store';
import { api, ApiError, NetworkError, request } from './api-client';
import { feedback } from './feedback';

function jsonResponse(body: unknown, init: ResponseInit = {}) {
  return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' }, ...init });
}

let fetchMock: ReturnType<typeof vi.fn>;
let messageError: ReturnType<typeof vi.spyOn>;
let notificationError: ReturnType<typeof vi.spyOn>;

beforeEach(() => {
  fetchMock = vi.fn();
  vi.stubGlobal('fetch', fetchMock);
  messageError = vi.spyOn(feedback.message, 'error').mockImplementation(() => (() => undefined) as never);
  notificationError = vi.spyOn(feedback.notification, 'error').mockImplementation(() => undefined);
  useSession.getState().clear();
  useSettings.setState({ locale: 'zh-cn' });
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('request layer (SPEC.md §7–§9)', () => {
  it('posts JSON under /api with the Bearer token and the interface language', async () => {
    useSession.setState({ token: 'abc' });
    useSettings.setState({ locale: 'en' });
    fetchMock.mockResolvedValue(jsonResponse({ code: 0, message: 'ok', data: { list: [], total: 0 } }));
    const data = await api.call(endpoints.sysUsers.list, { page: 1 });
    expect(data).toEqual({ list: [], total: 0 });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/sys-users/list');
    expect(init.method).toBe('POST');
    expect(init.headers.Authorization).toBe('Bearer abc');
    expect(init.headers['Accept-Language']).toBe('en');
    expect(JSON.parse(init.body)).toEqual({ page: 1 });
  });

  it('sends no Authorization header without a token', async () => {
    fetchMock.mockResolvedValue(jsonResponse({ code: 0, message: 'ok', data: null }));
    await api.call(endpoints.session.health);
    expect(fetchMock.mock.calls[0]![0]).toBe('/api/health');
    expect(fetchMock.mock.calls[0]![1].method).toBe('GET');
    expect(fetchMock.mock.calls[0]![1].headers).not.toHaveProperty('Authorization');
  });

  it('makes the session calls with the path and method of their endpoint table entries', async () => {
    fetchMock.mockImplementation(() => Promise.resolve(jsonResponse({ code: 0, message: 'ok', data: null })));
    await api.session.login({ account: 'a', pwd: 'b' });
    await api.session.get_user_info(undefined, { quiet: true });
    await api.session.logout();
    await api.session.reset_passwd({ currentUserId: 7 });
    const sent = fetchMock.mock.calls.map(([url, init]) => [url, init.method, init.body]);
    expect(sent).toEqual([
      [`/api${endpoints.session.login.path}`, endpoints.session.login.method, JSON.stringify({ account: 'a', pwd: 'b' })],
      [`/api${endpoints.session.get_user_info.path}`, 'GET', undefined],
      [`/api${endpoints.session.logout.path}`, 'POST', '{}'],
      [`/api${endpoints.sysUsers.reset_passwd.path}`, endpoints.sysUsers.reset_passwd.method, JSON.stringify({ currentUserId: 7 })],
    ]);
    expect(endpoints.session.login.path).toBe('/login');
  });

  it('on a non-zero code shows "Error: {url}" with the server message for 3 s and rejects', async () => {
    fetchMock.mockResolvedValue(jsonResponse({ code: -2, message: '账号或密码错误', data: null }));
    const err = await request('/login', { account: 'a', pwd: 'b' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe(-2);
    expect(notificationError).toHaveBeenCalledWith({ title: 'Error: /login', description: '账号或密码错误', duration: 3 });
  });

  it('exposes field errors of a validation failure', async () => {
    fetchMock.mockResolvedValue(jsonResponse({ code: -2, message: 'bad', data: { errors: [{ field: 'account', message: 'Required' }] } }));
    const err = (await request('/sys-users/create_account', {}).catch((e: unknown) => e)) as ApiError;
    expect(err.fieldErrors).toEqual([{ field: 'account', message: 'Required' }]);
  });

  it('on 401 toasts the message, then after 500 ms clears local storage and goes to /login', async () => {
    vi.useFakeTimers();
    const replace = vi.fn();
    vi.stubGlobal('location', { ...window.location, replace });
    localStorage.setItem('user-store', '{"state":{"token":"x"}}');
    localStorage.setItem('settings', '{"state":{"isDark":true}}');
    fetchMock.mockResolvedValue(jsonResponse({ code: 401, message: '登录已失效，请重新登录', data: null }));
    await expect(request('/sys-users/get_user_info', undefined, { method: 'GET' })).rejects.toBeInstanceOf(ApiError);
    expect(messageError).toHaveBeenCalledWith('登录已失效，请重新登录');
    expect(notificationError).not.toHaveBeenCalled();
    vi.advanceTimersByTime(499);
    expect(localStorage.getItem('user-store')).not.toBeNull();
    expect(replace).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(localStorage.length).toBe(0);
    expect(replace).toHaveBeenCalledWith('/login');
  });

  it('accepts a spreadsheet when a file is expected', async () => {
    const xlsx = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
    fetchMock.mockResolvedValue(new Response(new Blob(['PK..'], { type: xlsx }), { headers: { 'content-type': xlsx } }));
    const blob = await request<Blob>('/sys-users/export', {}, { method: 'POST', blob: true });
    expect(blob).toBeInstanceOf(Blob);
    expect(notificationError).not.toHaveBeenCalled();
  });

  it('reads a non-spreadsheet file answer as JSON and shows its message in an "Error" notification', async () => {
    fetchMock.mockResolvedValue(jsonResponse({ code: 403, message: '没有权限执行此操作', data: null }));
    await expect(request('/sys-users/export', {}, { method: 'POST', blob: true })).rejects.toBeInstanceOf(ApiError);
    expect(notificationError).toHaveBeenCalledWith({ title: 'Error', description: '没有权限执行此操作', duration: 3 });
  });

  it('on 401 during a download still ends the session', async () => {
    vi.useFakeTimers();
    const replace = vi.fn();
    vi.stubGlobal('location', { ...window.location, replace });
    fetchMock.mockResolvedValue(jsonResponse({ code: 401, message: '登录已失效，请重新登录', data: null }));
    await expect(request('/sys-users/export', {}, { method: 'POST', blob: true })).rejects.toBeInstanceOf(ApiError);
    expect(notificationError).not.toHaveBeenCalled();
    expect(messageError).toHaveBeenCalledWith('登录已失效，请重新登录');
    vi.advanceTimersByTime(500);
    expect(replace).toHaveBeenCalledWith('/login');
  });

  it('in quiet mode rejects without any toast or notification', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse({ code: -2, message: 'nope', data: null }));
    await expect(request('/sys-users/get_user_info', undefined, { method: 'GET', quiet: true })).rejects.toBeInstanceOf(ApiError);
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    await expect(request('/sys-users/get_user_info', undefined, { method: 'GET', quiet: true })).rejects.toBeInstanceOf(NetworkError);
    expect(notificationError).not.toHaveBeenCalled();
    expect(messageError).not.toHaveBeenCalled();
  });

  it('toasts a network failure and rejects', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    await expect(request('/sys-users/list', {})).rejects.toBeInstanceOf(NetworkError);
    expect(messageError).toHaveBeenCalledWith(expect.stringContaining('Failed to fetch'));
  });

  it('toasts an HTTP failure that is not JSON', async () => {
    fetchMock.mockResolvedValue(new Response('bad gateway', { status: 502, headers: { 'content-type': 'text/html' } }));
    await expect(request('/sys-users/list', {})).rejects.toBeInstanceOf(NetworkError);
    expect(messageError).toHaveBeenCalledWith(expect.stringContaining('502'));
  });

  it('gives up after the 10-minute time-out', async () => {
    vi.useFakeTimers();
    fetchMock.mockImplementation(
      (_url: string, init: RequestInit) =>
        new Promise((_resolve, reject) => init.signal!.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')))),
    );
    const pending = request('/slow', {}).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(599_999);
    expect(messageError).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(await pending).toBeInstanceOf(NetworkError);
    expect(messageError).toHaveBeenCalledWith('请求超时，请检查网络后重试');
  });
});
