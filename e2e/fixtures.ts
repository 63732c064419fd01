/**
 * Shared helpers for the journeys: an API client over Playwright's `request` (log in, end a
 * session, create staff users whose roles grant exactly the paths a test needs), a session
 * seeded through the API where the login form itself is not under test, and `loginAs` for
 * the real form.
 */
import { createHash, randomBytes } from 'node:crypto';
import { test as base, expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { ADMIN_PASSWORD, MANAGER_PASSWORD } from './accounts.ts';

export { expect };
export type { Page };

export const md5 = (text: string) => createHash('md5').update(text, 'utf8').digest('hex');

export interface Envelope<T = unknown> {
  code: number;
  message: string;
  data: T;
}

export interface UserInfo {
  id: number;
  account: string;
  name: string;
  remark: string;
  is_admin: number;
  is_leader: number;
  platform: string;
  paths: string[];
  login_at: string | null;
}
export interface LoginResult extends UserInfo {
  token: string;
}

export interface Credentials {
  account: string;
  password: string;
}

export const ADMIN: Credentials = { account: 'admin', password: ADMIN_PASSWORD };
export const MANAGER: Credentials = { account: 'manager', password: MANAGER_PASSWORD };

/** A short unique suffix for accounts and role names created by a test. */
export const unique = (prefix: string) => `${prefix}${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;

export class Api {
  private managerToken: string | undefined;

  constructor(readonly request: APIRequestContext) {}

  /** One call; answers the envelope as it came (the caller checks `code`). */
  async call<T = unknown>(url: string, body?: unknown, token?: string, method: 'GET' | 'POST' = body === undefined ? 'GET' : 'POST'): Promise<Envelope<T>> {
    const headers: Record<string, string> = {};
    if (token) headers.Authorization = `Bearer ${token}`;
    const res = method === 'GET' ? await this.request.get(`/api${url}`, { headers }) : await this.request.post(`/api${url}`, { headers, data: body ?? {} });
    expect(res.status(), `HTTP status of ${method} /api${url}`).toBe(200);
    return (await res.json()) as Envelope<T>;
  }

  /** A call that must succeed; answers `data`. */
  async ok<T = unknown>(url: string, body?: unknown, token?: string): Promise<T> {
    const env = await this.call<T>(url, body, token);
    expect(env.code, `${url}: ${env.message}`).toBe(0);
    return env.data;
  }

  login({ account, password }: Credentials): Promise<LoginResult> {
    return this.ok<LoginResult>('/login', { account, pwd: md5(password) });
  }

  /** Ends the session of `token` on the server, as a second tab or device would. */
  async logout(token: string) {
    await this.ok('/logout', {}, token);
  }

  private async asManager() {
    this.managerToken ??= (await this.login(MANAGER)).token;
    return this.managerToken;
  }

  /** A session of the manager for calls made on their behalf (kept for the test). */
  managerSession(): Promise<string> {
    return this.asManager();
  }

  /**
   * A staff user (is_admin 0) whose only role grants `paths`, or with no role at all when
   * `paths` is empty. The manager creates both through the system-management API.
   */
  async createStaff(paths: string[], name = '测试员工'): Promise<Credentials & { id: number; name: string }> {
    const token = await this.asManager();
    const roleIds: number[] = [];
    if (paths.length) {
      const role = await this.ok<{ id: number }>('/sys-roles/create', { name: unique('e2e-role-'), paths }, token);
      roleIds.push(role.id);
    }
    const account = unique('e2e_');
    const password = `Pw-${randomBytes(6).toString('hex')}`;
    const user = await this.ok<{ id: number }>('/sys-users/create_account', { account, name, pwd: md5(password), role_ids: roleIds }, token);
    return { id: user.id, account, password, name };
  }
}

/** What the simulator's `POST /__sim/users` answers (packages/meta-sim/README.md "Control API"). */
export interface SimUser {
  user: { id: string; name: string };
  access_token: string;
  expires_at: string | null;
  scopes: string[];
  business: { id: string; name: string };
  ad_accounts: { id: string; account_id: string; name: string; currency: string; timezone_name: string }[];
  pages: { id: string; name: string; access_token: string }[];
  pixels: { id: string; name: string }[];
}

export interface SimUserInput {
  name?: string;
  scopes?: string[];
  /** Seconds; 0 = never; default 60 days. */
  token_expires_in?: number;
  business_name?: string;
  ad_accounts?: number | { name?: string; currency?: string; timezone_name?: string }[];
  pages?: number | { name?: string; category?: string }[];
  pixels?: number;
}

/**
 * The Graph API simulator the server started (global-setup hands its address over as
 * E2E_SIM_URL), driven through its control API `/__sim/`: Facebook test users with tokens and
 * assets, token expiry and revocation.
 */
export class Sim {
  constructor(
    readonly request: APIRequestContext,
    readonly url: string,
  ) {}

  async control<T = unknown>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<T> {
    const res = await this.request.fetch(`${this.url}/__sim/${path}`, { method, ...(body !== undefined && { data: body }) });
    expect(res.ok(), `${method} /__sim/${path}: ${res.status()} ${await res.text()}`).toBe(true);
    return (await res.json()) as T;
  }

  /** A Facebook user with a token and a business holding ad accounts, pages and a pixel. */
  createUser(input: SimUserInput = {}): Promise<SimUser> {
    return this.control<SimUser>('POST', 'users', input);
  }

  revokeToken(token: string, reason: 'logged_out' | 'password_changed' | 'app_removed' = 'logged_out') {
    return this.control('POST', 'tokens/revoke', { token, reason });
  }
}

/** The few fields of a personal account the helpers read (packages/contracts personalAccountSchema). */
export interface PersonalAccountRow {
  id: number;
  fb_user_id: string;
  name: string;
  status: string;
  ad_account_count: number;
  page_count: number;
  pixel_count: number;
  last_sync_status: string | null;
}

/**
 * A Facebook user made in the simulator (names made unique), connected by the manager through
 * the API, its first sync finished: the ad accounts, pages and pixel are in the app's lists.
 */
export async function connectedSimUser(api: Api, sim: Sim, input: SimUserInput = {}): Promise<{ simUser: SimUser; account: PersonalAccountRow }> {
  const name = input.name ?? unique('E2E个号');
  const simUser = await sim.createUser({ ...input, name });
  const token = await api.managerSession();
  const connected = await api.ok<PersonalAccountRow>('/personal-accounts/connect_token', { access_token: simUser.access_token }, token);
  const account = await waitForSync(api, connected.fb_user_id);
  return { simUser, account };
}

/** Waits until the personal account of this Facebook user has finished a sync successfully. */
export async function waitForSync(api: Api, fbUserId: string): Promise<PersonalAccountRow> {
  const token = await api.managerSession();
  let row: PersonalAccountRow | undefined;
  await expect
    .poll(
      async () => {
        const page = await api.ok<{ list: PersonalAccountRow[] }>('/personal-accounts/list', { page: 1, page_size: 10, keyword: fbUserId }, token);
        row = page.list.find((a) => a.fb_user_id === fbUserId);
        return row?.last_sync_status;
      },
      { timeout: 30_000, intervals: [250, 500, 1000], message: `the sync of Facebook user ${fbUserId}` },
    )
    .toBe('success');
  return row!;
}

type Fixtures = { api: Api; sim: Sim };

export const test = base.extend<Fixtures>({
  // global-setup starts the server on a free port and hands its address over in the environment.
  // eslint-disable-next-line no-empty-pattern
  baseURL: async ({}, use) => {
    const url = process.env.E2E_BASE_URL;
    if (!url) throw new Error('E2E_BASE_URL is not set: run the suite through playwright.config.ts (global-setup starts the server).');
    await use(url);
  },
  api: async ({ request }, use) => {
    await use(new Api(request));
  },
  sim: async ({ request }, use) => {
    const url = process.env.E2E_SIM_URL;
    if (!url) throw new Error('E2E_SIM_URL is not set: run the suite through playwright.config.ts (global-setup starts the server and its simulator).');
    await use(new Sim(request, url));
  },
  // E2E_CPU_THROTTLE=<n> slows the page's CPU n times (Chromium's DevTools emulation): races that
  // load brings out (a click landing while a list re-renders) then show on a quiet machine too.
  page: async ({ page }, use) => {
    const rate = Number(process.env.E2E_CPU_THROTTLE ?? 1);
    if (rate > 1) await (await page.context().newCDPSession(page)).send('Emulation.setCPUThrottlingRate', { rate });
    await use(page);
  },
  // The server's Content-Security-Policy must fit the built app: any violation Chromium reports fails the journey.
  context: async ({ context }, use) => {
    const violations: string[] = [];
    // Some refusals (WebAssembly compilation, say) only throw in the page: the DOM event reports every one.
    await context.addInitScript(() =>
      document.addEventListener('securitypolicyviolation', (e) => console.error(`Content Security Policy violation: ${e.effectiveDirective} blocked ${e.blockedURI || '(inline)'}`)),
    );
    context.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
    });
    await use(context);
    expect(violations, 'Content-Security-Policy violations in the browser console').toEqual([]);
  },
});

/** The value a zustand-persisted store keeps under `key` in local storage, parsed. */
export async function readStore<T = any>(page: Page, key: string): Promise<T | null> {
  const raw = await page.evaluate((k) => localStorage.getItem(k), key);
  return raw ? ((JSON.parse(raw) as { state: T }).state ?? null) : null;
}

/**
 * Puts a session logged in through the API into the page's local storage, as the login form
 * would leave it ("user-store": token and user info). Used where the form is not under test.
 */
export async function seedSession(page: Page, login: LoginResult) {
  const { token, ...userInfo } = login;
  // Any page of the app's origin will do; the health endpoint is the cheapest.
  await page.goto('/api/health');
  await page.evaluate((value) => localStorage.setItem('user-store', value), JSON.stringify({ state: { token, userInfo }, version: 1 }));
}

/** Logs in through the API, seeds the session and opens `path`. Answers the login result. */
export async function openAs(page: Page, api: Api, who: Credentials, path = '/'): Promise<LoginResult> {
  const login = await api.login(who);
  await seedSession(page, login);
  await page.goto(path);
  return login;
}

// Not anchored: after a failed attempt antd may keep its (hidden) "loading" icon in the button's name for a while.
export const loginButton = (page: Page) => page.getByRole('button', { name: /登\s*录|Log in/ });

/** Logs in with the real login form and waits until the app has left /login. */
export async function loginAs(page: Page, account: string, password: string) {
  if (!page.url().endsWith('/login')) await page.goto('/login');
  await page.getByLabel(/^(账号|Account)$/).fill(account);
  await page.getByLabel(/^(密码|Password)$/).fill(password);
  await loginButton(page).click();
  await expect(page).not.toHaveURL(/\/login$/);
}

/** The path part of the page's URL. */
export const pathname = (page: Page) => new URL(page.url()).pathname;

export const sidebar = (page: Page) => page.locator('.ant-layout-sider');
export const sideMenu = (page: Page) => page.getByTestId('side-menu');

/** Titles of the menu's top-level entries, in the order shown. */
export async function topLevelTitles(page: Page): Promise<string[]> {
  const entries = sideMenu(page).locator(':scope > li.ant-menu-item, :scope > li.ant-menu-submenu > .ant-menu-submenu-title');
  return (await entries.allInnerTexts()).map((t) => t.trim());
}

/** A top-level group of the side menu by its title. */
export const menuGroup = (page: Page, title: string): Locator =>
  sideMenu(page).locator(':scope > li.ant-menu-submenu').filter({ has: page.locator(':scope > .ant-menu-submenu-title', { hasText: new RegExp(`^${title}$`) }) });

/** Titles of the entries shown inside an open group. */
export async function groupEntries(page: Page, title: string): Promise<string[]> {
  return (await menuGroup(page, title).locator('li.ant-menu-item').allInnerTexts()).map((t) => t.trim());
}

/** The highlighted menu entry. */
export const selectedEntry = (page: Page) => sideMenu(page).locator('li.ant-menu-item-selected');

/** The 404 page of the app. */
export const notFoundPage = (page: Page) => page.locator('.ant-result-404');

export const userMenuButton = (page: Page) => page.getByRole('button', { name: /^(用户菜单|User menu)$/ });

/** Opens the user dropdown and clicks one of its options: 重置密码 opens a dialog, 退出登录 lands on the login page. */
export async function chooseUserMenu(page: Page, option: RegExp | string) {
  const loggingOut = /退出登录|Log out/.test(String(option));
  await chooseMenuItem(page, userMenuButton(page), option, loggingOut ? loginButton(page) : page.getByRole('dialog'));
}

/**
 * Opens a click-triggered dropdown with `opener`, chooses `option` once, and waits for `effect`
 * (what the choice opens or where it leads). No retry: a lost click is a product fault.
 */
export async function chooseMenuItem(page: Page, opener: Locator, option: RegExp | string, effect: Locator) {
  const item = page.getByRole('menuitem', { name: option });
  await opener.click();
  // The menu opens with a motion: a click while it still slides in can land beside the item on a
  // loaded machine (CI lost one that way twice). Click once the open menu has settled.
  await expect(item).toBeVisible();
  await expect(page.locator('.ant-dropdown').filter({ has: item })).not.toHaveClass(/-(appear|enter|leave)/);
  await item.click();
  await expect(effect.first()).toBeVisible();
}

/** Switches the interface language from the header's language menu. */
export async function switchLocale(page: Page, to: 'English' | '简体中文') {
  const item = page.getByRole('menuitem', { name: to });
  await page.getByRole('button', { name: /^(切换语言|Change language)$/ }).click();
  await item.click();
  await expect(item).toBeHidden();
}

export interface FeedbackEntry {
  kind: 'toast' | 'notification';
  text: string;
  /** Epoch ms when it appeared. */
  at: number;
  /** Epoch ms when it left the page (after its exit animation), if it did before a reload. */
  gone?: number;
  path: string;
}

export interface ApiTiming {
  url: string;
  /** Epoch ms when the answer had arrived. */
  end: number;
}

/**
 * Records in session storage, which survives the reload to /login that a 401 causes, every
 * toast and notification (when it appeared and when it left) and when each /api answer arrived. Durations are then measured in the page itself, and
 * toasts shown just before such a reload can still be asserted on.
 */
export async function recordFeedback(page: Page) {
  await page.addInitScript(() => {
    const KEY = 'e2e-feedback';
    const API_KEY = 'e2e-api';
    const live = new Map<Element, number>();
    const read = <T,>(key: string) => JSON.parse(sessionStorage.getItem(key) ?? '[]') as T[];
    const scan = () => {
      const log = read<Record<string, unknown>>(KEY);
      let changed = false;
      for (const [el, index] of live) {
        if (!el.isConnected) {
          log[index]!.gone = Date.now();
          live.delete(el);
          changed = true;
        }
      }
      for (const el of document.querySelectorAll('.ant-message-notice, .ant-notification-notice')) {
        const text = (el.textContent ?? '').trim();
        if (live.has(el) || !text || el.hasAttribute('data-e2e-seen')) continue;
        el.setAttribute('data-e2e-seen', '');
        live.set(el, log.length);
        log.push({ kind: el.classList.contains('ant-message-notice') ? 'toast' : 'notification', text, at: Date.now(), path: location.pathname });
        changed = true;
      }
      if (changed) sessionStorage.setItem(KEY, JSON.stringify(log));
    };
    new MutationObserver(scan).observe(document, { childList: true, subtree: true, characterData: true });
    new PerformanceObserver((list) => {
      const calls = read<{ url: string; end: number }>(API_KEY);
      for (const e of list.getEntries() as PerformanceResourceTiming[]) {
        if (e.name.includes('/api/')) calls.push({ url: new URL(e.name).pathname, end: performance.timeOrigin + e.responseEnd });
      }
      sessionStorage.setItem(API_KEY, JSON.stringify(calls));
    }).observe({ type: 'resource' });
  });
}

export async function feedbackLog(page: Page): Promise<FeedbackEntry[]> {
  return page.evaluate(() => JSON.parse(sessionStorage.getItem('e2e-feedback') ?? '[]') as FeedbackEntry[]);
}

export async function apiTimings(page: Page): Promise<ApiTiming[]> {
  return page.evaluate(() => JSON.parse(sessionStorage.getItem('e2e-api') ?? '[]') as ApiTiming[]);
}

/** The recorded feedback entry whose text contains `text`, once it has appeared and left the page. */
export async function finishedFeedback(page: Page, text: string, timeout = 20_000): Promise<FeedbackEntry & { gone: number }> {
  let found: FeedbackEntry | undefined;
  await expect
    .poll(
      async () => {
        found = (await feedbackLog(page)).find((e) => e.text.includes(text));
        return found?.gone !== undefined;
      },
      { timeout, message: `"${text}" shown and closed` },
    )
    .toBe(true);
  return found as FeedbackEntry & { gone: number };
}

/** A toast (antd message) with this text. */
export const toast = (page: Page, text: string | RegExp) => page.locator('.ant-message-notice').filter({ hasText: text });
/** A notification with this text. */
export const notification = (page: Page, text: string | RegExp) => page.locator('.ant-notification-notice').filter({ hasText: text });

/**
 * Picks an option of an antd select that searches as you type (user, ad-account and pixel
 * pickers): types `search`, clicks the option containing `option` (default: the search text)
 * once, and, for a multiple select, closes the dropdown once the choice has landed in the field.
 * No retry: the pickers show only the answer to what is typed, so the option clicked stays where
 * it is (a lost click is a product fault).
 */
export async function pickOption(page: Page, combobox: Locator, search: string, { option = search, multiple = false }: { option?: string | RegExp; multiple?: boolean } = {}) {
  const field = combobox.locator('xpath=ancestor::*[contains(concat(" ", normalize-space(@class), " "), " ant-select ")][1]');
  const dropdown = page.locator('.ant-select-dropdown:visible');
  await combobox.click();
  await combobox.fill(search);
  await dropdown.locator('.ant-select-item-option').filter({ hasText: option }).click();
  await expect(field).toContainText(option);
  if (multiple) await combobox.press('Escape');
  await expect(dropdown).toHaveCount(0);
}
