import type { SysUser } from '@ads/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { md5Hex } from '@/lib/md5';
import { buildDepartment, buildRole, buildUser } from '@/testing/factories';
import { mockApi, MockRefusal } from '@/testing/mock-api';
import { findDialog, rowOf } from '@/testing/dom';
import { manager, renderScreen } from '@/testing/render';
import { GENERATED_PASSWORD, RESET_PASSWORD, sysBackend } from '@/testing/sys-backend';
import AccountsPage from './accounts-page';

const ops = buildDepartment({ id: 11, name: 'Operations', member_count: 2 });
const optimizer = buildRole({ id: 21, name: 'Optimizer' });
const editor = buildRole({ id: 22, name: 'Editor' });

const clerkRole = buildRole({ id: 23, name: 'Auth clerk', asset_scope: 'company' });

function setup({
  url = '/sys/accounts',
  overrides = {},
  viewer = manager,
  more = [],
  preferences,
}: { url?: string; overrides?: Parameters<typeof mockApi>[0]; viewer?: typeof manager; more?: SysUser[]; preferences?: Record<string, unknown> } = {}) {
  const backend = sysBackend({
    departments: [ops],
    roles: [optimizer, editor, clerkRole],
    users: [
      buildUser({ id: 1, account: 'manager', name: 'Mona', is_admin: 1 }),
      buildUser({ id: 2, account: 'admin', name: 'Super', is_admin: 9 }),
      buildUser({
        id: 3,
        account: 'alice',
        name: 'Alice',
        department_id: 11,
        department_name: 'Operations',
        roles: [{ id: 21, name: 'Optimizer' }],
        is_leader: 1,
        login_at: '2026-03-02T10:00:00.000Z',
      }),
      buildUser({ id: 4, account: 'bob', name: 'Bob', status: 'disabled' }),
      ...more,
    ],
  });
  const api = mockApi({ ...backend.handlers, ...overrides }, { preferences });
  const view = renderScreen(<AccountsPage />, { url, user: viewer });
  return { ...view, api, backend };
}

const filters = () => within(screen.getByRole('form', { name: 'filters' }));
const search = (url: string) => new URLSearchParams(url);

async function openCreateForm(user: ReturnType<typeof setup>['user']) {
  await screen.findByText('alice');
  await user.click(screen.getByRole('button', { name: /New account/ }));
  return await findDialog('New account');
}

// Whole screens with real antd: generous per-test time for a busy CI machine.
describe('accounts page', { timeout: 60_000 }, () => {
  it('shows the route title and lists the accounts with their department, roles, level, leader flag and status', async () => {
    const { api } = setup();
    expect(screen.getByRole('heading', { name: 'Accounts' })).toBeTruthy();
    await screen.findByText('alice');
    const alice = rowOf('alice');
    expect(alice.getByText('Operations')).toBeTruthy();
    expect(alice.getByText('Optimizer')).toBeTruthy();
    expect(alice.getByText('Staff')).toBeTruthy();
    expect(alice.getByText('Leader')).toBeTruthy();
    expect((rowOf('bob')).getByText('Disabled')).toBeTruthy();
    expect((rowOf('admin')).getByText('Super admin')).toBeTruthy();
    expect((rowOf('manager')).getByText('Manager')).toBeTruthy();
    expect(screen.getByText('4 in total')).toBeTruthy();
    expect(api.lastBody('/sys-users/list')).toEqual({ page: 1, page_size: 20 });
  });

  it('sends the filters to the server and keeps them in the URL', async () => {
    const { api, user, router } = setup();
    await screen.findByText('alice');
    await user.type(filters().getByLabelText('Account'), 'bo');
    await user.click(filters().getByRole('button', { name: /Search/ }));
    await waitFor(() => expect(api.lastBody('/sys-users/list')).toEqual({ page: 1, page_size: 20, account: 'bo' }));

    // A choice applies at once.
    await user.click(filters().getByLabelText('Status'));
    await user.click(await screen.findByTitle('Disabled'));
    await waitFor(() => expect(api.lastBody('/sys-users/list')).toEqual({ page: 1, page_size: 20, account: 'bo', status: 'disabled' }));
    expect(Object.fromEntries(search(router.state.location.search))).toEqual({ account: 'bo', status: 'disabled' });
    await waitFor(() => expect(screen.queryByText('alice')).toBeNull());
    expect(screen.getByText('bob')).toBeTruthy();
  });

  it('opens a shared link with its filters, sort and page already applied', async () => {
    const { api } = setup({ url: '/sys/accounts?name=Ali&is_admin=0&sort_field=login_at&sort_order=descend&page_size=50' });
    await screen.findByText('alice');
    expect(api.bodies('/sys-users/list')[0]).toEqual({ page: 1, page_size: 50, name: 'Ali', is_admin: 0, sort_field: 'login_at', sort_order: 'descend' });
    expect((filters().getByLabelText('Name') as HTMLInputElement).value).toBe('Ali');
  });

  it('sorts on the server by a clicked column', async () => {
    const { api, user, router } = setup();
    await screen.findByText('alice');
    await user.click(screen.getAllByText('Last login')[0]!);
    await waitFor(() => expect(api.lastBody('/sys-users/list')).toEqual({ page: 1, page_size: 20, sort_field: 'login_at', sort_order: 'ascend' }));
    expect(search(router.state.location.search).get('sort_field')).toBe('login_at');
  });

  it('shows validation messages before sending an incomplete or malformed new account', async () => {
    const { api, user } = setup();
    const form = await openCreateForm(user);
    await user.click(form.getByRole('button', { name: /Save/ }));
    expect(await form.findByText('Enter an account')).toBeTruthy();
    expect(form.getByText('Enter a name')).toBeTruthy();

    await user.type(form.getByLabelText('Account'), 'a b');
    expect(await form.findByText('Only letters, digits and _ . @ - are allowed')).toBeTruthy();
    await user.clear(form.getByLabelText('Account'));
    await user.type(form.getByLabelText('Account'), 'x');
    expect(await form.findByText('The account must be 2–32 characters long')).toBeTruthy();
    await user.type(form.getByLabelText('Initial password'), '123');
    expect(await form.findByText('The password must be 6–64 characters long')).toBeTruthy();
    expect(api.count('/sys-users/create_account')).toBe(0);
  });

  it('creates an account with the MD5 of the given initial password and no password dialog', async () => {
    const { api, user } = setup();
    const form = await openCreateForm(user);
    await user.type(form.getByLabelText('Account'), ' carol ');
    await user.type(form.getByLabelText('Name'), 'Carol');
    await user.type(form.getByLabelText('Initial password'), 'secret123');
    await user.click(form.getByRole('button', { name: /Save/ }));

    await waitFor(() => expect(api.count('/sys-users/create_account')).toBe(1));
    expect(api.lastBody('/sys-users/create_account')).toEqual({
      account: 'carol',
      name: 'Carol',
      remark: '',
      is_admin: 0,
      is_leader: 0,
      platform: 'dj',
      role_ids: [],
      pwd: md5Hex('secret123'),
    });
    expect(await screen.findByText('Account "carol" created')).toBeTruthy();
    expect(screen.queryByTestId('shown-password')).toBeNull();
    // The list is refreshed with the new account.
    expect(await screen.findByText('carol')).toBeTruthy();
  });

  it('shows a server-generated password once, with a copy button and a warning', async () => {
    const { api, user } = setup();
    const form = await openCreateForm(user);
    await user.type(form.getByLabelText('Account'), 'dave');
    await user.type(form.getByLabelText('Name'), 'Dave');
    await user.click(form.getByRole('button', { name: /Save/ }));

    const result = await findDialog('Account "dave" created');
    expect(api.lastBody('/sys-users/create_account')).not.toHaveProperty('pwd');
    expect(result.getByTestId('shown-password').textContent).toContain(GENERATED_PASSWORD);
    expect(result.getByText(/shown only this once/)).toBeTruthy();
    expect(result.getByRole('button', { name: 'Copy password' })).toBeTruthy();

    await user.click(result.getByRole('button', { name: 'I have saved it' }));
    await waitFor(() => expect(screen.queryByText(GENERATED_PASSWORD)).toBeNull());
  });

  it('puts the server field errors on the form fields', async () => {
    const { user } = setup({
      overrides: {
        '/sys-users/create_account': () =>
          new MockRefusal('Invalid input: name At most 32 characters', { errors: [{ field: 'name', message: 'At most 32 characters (server)' }] }),
      },
    });
    const form = await openCreateForm(user);
    await user.type(form.getByLabelText('Account'), 'erin');
    await user.type(form.getByLabelText('Name'), 'Erin');
    await user.click(form.getByRole('button', { name: /Save/ }));
    expect(await form.findByText('At most 32 characters (server)')).toBeTruthy();
  });

  it('edits an account without a password field and sends the changed fields', async () => {
    const { api, user } = setup();
    await screen.findByText('alice');
    await user.click((rowOf('alice')).getByRole('button', { name: 'Edit' }));
    const form = await findDialog('Edit account "alice"');
    expect(form.queryByLabelText('Initial password')).toBeNull();
    const name = form.getByLabelText('Name');
    await user.clear(name);
    await user.type(name, 'Alice Wong');
    await user.click(form.getByRole('button', { name: /Save/ }));
    await waitFor(() => expect(api.count('/sys-users/edit_account')).toBe(1));
    expect(api.lastBody('/sys-users/edit_account')).toEqual({
      id: 3,
      account: 'alice',
      name: 'Alice Wong',
      remark: '',
      is_admin: 0,
      is_leader: 1,
      platform: 'dj',
      role_ids: [21],
      department_id: 11,
    });
  });

  it('asks for confirmation naming the user before deleting', async () => {
    const { api, user } = setup();
    await screen.findByText('alice');
    await user.click((rowOf('alice')).getByRole('button', { name: 'More alice' }));
    await user.click(await screen.findByText('Delete'));
    const confirm = await findDialog('Delete the account of "Alice" (alice)?');
    expect(api.count('/sys-users/delete_user')).toBe(0);

    await user.click(confirm.getByRole('button', { name: 'Cancel' }));
    expect(api.count('/sys-users/delete_user')).toBe(0);

    await user.click((rowOf('alice')).getByRole('button', { name: 'More alice' }));
    await user.click(await screen.findByText('Delete'));
    await user.click((await findDialog('Delete the account of "Alice" (alice)?')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(api.lastBody('/sys-users/delete_user')).toEqual({ id: 3 }));
    await waitFor(() => expect(screen.queryByText('alice')).toBeNull());
  });

  it('offers no delete or disable for oneself and no actions on the super admin', async () => {
    const { user } = setup();
    await screen.findByText('alice');
    const me = rowOf('manager');
    expect(me.getByText('You')).toBeTruthy();
    expect((me.getByRole('button', { name: 'Disable' }) as HTMLButtonElement).disabled).toBe(true);
    await user.click(me.getByRole('button', { name: 'More manager' }));
    const del = (await screen.findByText('Delete')).closest('li')!;
    expect(del.getAttribute('aria-disabled')).toBe('true');

    const superRow = rowOf('admin');
    expect(superRow.queryByRole('button', { name: 'Edit' })).toBeNull();
    expect(superRow.getByLabelText('The super admin account cannot be changed here')).toBeTruthy();
  });

  it('leaves leaders and holders of company-wide roles to managers, and locks the leader switch and those roles for a staff member', async () => {
    const hr = { ...manager, id: 50, account: 'hr', is_admin: 0, department_id: 11, paths: ['/index', '/sys', '/sys/accounts'] };
    const { user } = setup({
      viewer: hr,
      more: [
        buildUser({ id: 5, account: 'kate', name: 'Kate', department_id: 11, department_name: 'Operations', roles: [{ id: 23, name: 'Auth clerk' }] }),
        buildUser({ id: 6, account: 'liam', name: 'Liam', department_id: 11, department_name: 'Operations', roles: [{ id: 21, name: 'Optimizer' }] }),
      ],
    });
    await screen.findByText('alice');
    const wider = 'This user is a leader or a manager, or sees the company’s authorization assets; only managers can manage them';
    expect(rowOf('alice').queryByRole('button', { name: 'Edit' })).toBeNull();
    expect(rowOf('alice').getByLabelText(wider)).toBeTruthy();
    expect(rowOf('kate').getByLabelText(wider)).toBeTruthy();
    expect(rowOf('manager').getByLabelText('You can only manage staff accounts of your department and the ones below it')).toBeTruthy();

    await user.click(rowOf('liam').getByRole('button', { name: 'Edit' }));
    const form = await findDialog('Edit account "liam"');
    expect((form.getByRole('switch', { name: 'Leader' }) as HTMLButtonElement).disabled).toBe(true);
    expect(form.getByText('Only managers can make someone a leader')).toBeTruthy();
    await user.click(form.getByLabelText('Roles'));
    const option = (name: string) => [...document.querySelectorAll('.ant-select-item-option')].find((o) => o.textContent === name)!;
    await waitFor(() => expect(option('Auth clerk')).toBeTruthy());
    expect(option('Auth clerk').getAttribute('aria-disabled')).toBe('true');
  });

  it('disables an account after confirmation', async () => {
    const { api, user } = setup();
    await screen.findByText('alice');
    await user.click((rowOf('alice')).getByRole('button', { name: 'Disable' }));
    const confirm = await findDialog('Disable the account of "Alice"?');
    await user.click(confirm.getByRole('button', { name: 'Disable' }));
    await waitFor(() => expect(api.lastBody('/sys-users/edit_account')).toEqual({ id: 3, status: 'disabled' }));
  });

  it("resets another user's password after confirmation and shows the new one once", async () => {
    const { api, user } = setup();
    await screen.findByText('alice');
    await user.click((rowOf('alice')).getByRole('button', { name: 'More alice' }));
    await user.click(await screen.findByText('Reset password'));
    const confirm = await findDialog('Reset the password of "Alice"?');
    await user.click(confirm.getByRole('button', { name: 'Reset' }));

    const result = await findDialog('Password of "alice" reset');
    expect(api.lastBody('/sys-users/reset_passwd')).toEqual({ currentUserId: 3 });
    expect(result.getByTestId('shown-password').textContent).toContain(RESET_PASSWORD);
    await user.click(result.getByRole('button', { name: 'I have saved it' }));
    await waitFor(() => expect(screen.queryByText(RESET_PASSWORD)).toBeNull());
  });

  it('replaces the roles of the selected accounts, saying so first', async () => {
    const { api, user } = setup();
    await screen.findByText('alice');
    await user.click((rowOf('alice')).getByRole('checkbox'));
    await user.click((rowOf('bob')).getByRole('checkbox'));
    expect(screen.getByText('2 selected')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: /Assign roles/ }));

    const modal = await findDialog('Assign roles');
    expect(modal.getByText(/REPLACES all current roles/)).toBeTruthy();
    expect(modal.getByText('Alice (alice)')).toBeTruthy();
    await user.click(modal.getByLabelText('New roles'));
    await user.click(await screen.findByTitle('Editor'));
    await user.click(modal.getByRole('button', { name: /Save/ }));
    await waitFor(() => expect(api.lastBody('/sys-users/batch_save_user_role')).toEqual({ user_ids: [3, 4], role_ids: [22] }));
    await waitFor(() => expect(screen.queryByText('2 selected')).toBeNull());
  });

  it('lets the user hide and show columns, remembered on the server for this screen', async () => {
    const { user, api, unmount } = setup();
    await screen.findByText('alice');
    expect(screen.getByRole('columnheader', { name: 'Department' })).toBeTruthy();
    // Created and business line are in the chooser, hidden by default (the table fits 1440 px).
    expect(screen.queryByRole('columnheader', { name: /Created/ })).toBeNull();
    await user.click(screen.getByRole('button', { name: /Columns/ }));
    const chooser = within(await screen.findByTestId('column-chooser'));
    // The account names the row: it cannot be hidden.
    expect((chooser.getByLabelText('Account') as HTMLInputElement).disabled).toBe(true);
    await user.click(chooser.getByLabelText('Department'));
    await user.click(chooser.getByLabelText('Created'));
    await waitFor(() => expect(screen.queryByRole('columnheader', { name: 'Department' })).toBeNull());
    await screen.findByRole('columnheader', { name: /Created/ });
    expect(rowOf('alice').queryByText('Operations')).toBeNull();
    await waitFor(() => expect(api.preference('columns:/sys/accounts')).toEqual({ hidden: ['platform', 'department'], sets: [] }));
    // Another screen's choice is its own.
    expect(api.preference('columns:/auth/account')).toBeUndefined();
    const stored = api.preference('columns:/sys/accounts');
    unmount();

    const again = setup({ preferences: { 'columns:/sys/accounts': stored } });
    await screen.findByText('alice');
    expect(screen.queryByRole('columnheader', { name: 'Department' })).toBeNull();
    expect(screen.getByRole('columnheader', { name: 'Roles' })).toBeTruthy();
    await again.user.click(screen.getByRole('button', { name: /Columns/ }));
    await again.user.click(within(await screen.findByTestId('column-chooser')).getByRole('button', { name: 'Restore defaults' }));
    await waitFor(() => expect(screen.getByRole('columnheader', { name: 'Department' })).toBeTruthy());
    expect(rowOf('alice').getByText('Operations')).toBeTruthy();
    await waitFor(() => expect(again.api.preference('columns:/sys/accounts')).toEqual({ hidden: ['platform', 'created_at'], sets: [] }));
  });

  it('exports the accounts matching the current filters and sort, without paging', async () => {
    const { api, user } = setup({ url: '/sys/accounts?status=enabled&sort_field=name&sort_order=ascend&page_size=50' });
    await screen.findByText('alice');
    await user.click(screen.getByRole('button', { name: /Export Excel/ }));
    await waitFor(() => expect(api.count('/sys-users/export')).toBe(1));
    expect(api.lastBody('/sys-users/export')).toEqual({
      status: 'enabled',
      sort_field: 'name',
      sort_order: 'ascend',
      // The shown columns, in table order (platform and created_at are hidden by default).
      columns: ['account', 'name', 'department', 'roles', 'level', 'leader', 'status', 'login_at'],
    });
  });
});
