import { groupWithPages, IS_ADMIN_STAFF } from '@ads/contracts';
import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildRole } from '@/testing/factories';
import { findDialog, rowOf } from '@/testing/dom';
import { mockApi } from '@/testing/mock-api';
import { manager, renderScreen } from '@/testing/render';
import { sysBackend } from '@/testing/sys-backend';
import { LEAF_PATHS } from '../components/route-paths';
import RolePage from './role-page';

/** A staff member holding the role screen, the home page and one authorization page. */
const staffEditor = { ...manager, id: 7, account: 'editor', is_admin: IS_ADMIN_STAFF, paths: ['/index', '/auth', '/auth/pixel', '/sys', '/sys/role'] };

function setup(url = '/sys/role', user = manager) {
  const backend = sysBackend({
    roles: [
      buildRole({ id: 1, name: 'Optimizer', remark: 'Publishes and watches', paths: ['/index', '/advertising', '/advertising/publish', '/advertising/user'], member_count: 12 }),
      // A whole group is stored as the group and every page of it.
      buildRole({ id: 2, name: 'Auth clerk', paths: groupWithPages('/auth'), member_count: 0, asset_scope: 'company' }),
      // A group path alone grants the menu entry, no page.
      buildRole({ id: 3, name: 'Menu only', paths: ['/sys'], member_count: 0 }),
    ],
  });
  const api = mockApi(backend.handlers);
  const view = renderScreen(<RolePage />, { url, user });
  return { ...view, api, backend };
}

/** The tree node checkbox of a route title inside the open drawer. */
const treeCheckbox = (title: string) => {
  const node = [...document.querySelectorAll('.ant-tree-treenode')].find((n) => n.querySelector('.ant-tree-title span')?.textContent === title);
  if (!node) throw new Error(`no tree node ${title}`);
  return node.querySelector('.ant-tree-checkbox') as HTMLElement;
};

describe('role page', { timeout: 60_000 }, () => {
  it('lists roles with how many pages they grant and how many members they have', async () => {
    const { api } = setup();
    expect(screen.getByRole('heading', { name: 'Roles' })).toBeTruthy();
    await screen.findByText('Optimizer');
    expect(rowOf('Optimizer').getByText('Pages: 3')).toBeTruthy();
    expect(rowOf('Optimizer').getByText('12')).toBeTruthy();
    expect(rowOf('Auth clerk').getByText('Pages: 5')).toBeTruthy();
    expect(rowOf('Auth clerk').getByText('Company-wide assets')).toBeTruthy();
    expect(rowOf('Optimizer').queryByText('Company-wide assets')).toBeNull();
    expect(rowOf('Menu only').getByText('No pages')).toBeTruthy();
    expect(screen.getByText('3 in total')).toBeTruthy();
    expect(api.lastBody('/sys-roles/list')).toEqual({ page: 1, page_size: 20 });
  });

  it('filters by name on the server and keeps the filter in the URL', async () => {
    const { api, user, router } = setup();
    await screen.findByText('Optimizer');
    await user.type(within(screen.getByRole('form', { name: 'filters' })).getByLabelText('Role name'), 'Auth{Enter}');
    await waitFor(() => expect(api.lastBody('/sys-roles/list')).toEqual({ page: 1, page_size: 20, name: 'Auth' }));
    expect(new URLSearchParams(router.state.location.search).get('name')).toBe('Auth');
    await waitFor(() => expect(screen.queryByText('Optimizer')).toBeNull());
  });

  it('sorts by member count on the server', async () => {
    const { api, user } = setup();
    await screen.findByText('Optimizer');
    await user.click(screen.getAllByText('Members')[0]!);
    await waitFor(() => expect(api.lastBody('/sys-roles/list')).toEqual({ page: 1, page_size: 20, sort_field: 'member_count', sort_order: 'ascend' }));
  });

  it('asks for a name before sending a new role, then saves the checked pages with their groups', async () => {
    const { api, user } = setup();
    await screen.findByText('Optimizer');
    await user.click(screen.getByRole('button', { name: /New role/ }));
    const drawer = await findDialog('New role');
    await user.click(drawer.getByRole('button', { name: /Save/ }));
    expect(await drawer.findByText('Enter a role name')).toBeTruthy();
    expect(api.count('/sys-roles/create')).toBe(0);

    await user.type(drawer.getByLabelText('Role name'), 'Clerk');
    // Hidden pages are listed too, marked as such.
    expect(drawer.getAllByText('Hidden page').length).toBeGreaterThan(0);
    await user.click(treeCheckbox('System'));
    await user.click(treeCheckbox('Home'));
    expect(drawer.getByTestId('paths-checked').textContent).toBe(`4 of ${LEAF_PATHS.length} pages selected`);
    await user.click(drawer.getByRole('button', { name: /Save/ }));
    await waitFor(() =>
      expect(api.lastBody('/sys-roles/create')).toEqual({ name: 'Clerk', remark: '', paths: ['/index', '/sys', '/sys/accounts', '/sys/department', '/sys/role'], asset_scope: 'own' }),
    );
  });

  it('gives focus back to the opener on cancel, but not once the person has moved on to the search box', async () => {
    const { user } = setup();
    await screen.findByText('Optimizer');
    const opener = screen.getByRole('button', { name: /New role/ });
    await user.click(opener);
    let drawer = await findDialog('New role');
    await user.click(drawer.getByRole('button', { name: /Cancel/ }));
    await waitFor(() => expect(document.activeElement).toBe(opener));

    await user.click(opener);
    drawer = await findDialog('New role');
    const search = screen.getAllByRole('textbox').find((el) => !el.closest('.ant-drawer'))!;
    act(() => {
      drawer.getByRole('button', { name: /Cancel/ }).click();
      search.focus();
    });
    await waitFor(() => expect(document.querySelector('.ant-drawer-open')).toBeNull());
    expect(document.activeElement).toBe(search);
  });

  it('opens a role with exactly its pages ticked and saves them with their groups and its asset scope', async () => {
    const { api, user } = setup();
    await screen.findByText('Optimizer');
    await user.click(rowOf('Auth clerk').getByRole('button', { name: 'Edit' }));
    const drawer = await findDialog('Edit role "Auth clerk"');
    expect(drawer.getByTestId('paths-checked').textContent).toBe(`5 of ${LEAF_PATHS.length} pages selected`);
    await user.click(treeCheckbox('Pixels'));
    await user.click(drawer.getByRole('button', { name: /Save/ }));
    await waitFor(() =>
      expect(api.lastBody('/sys-roles/edit')).toEqual({
        id: 2,
        name: 'Auth clerk',
        remark: '',
        paths: ['/auth', '/auth/homepage', '/auth/site', '/auth/account', '/auth/personage'],
        asset_scope: 'company',
      }),
    );
  });

  it('ticks nothing for a role storing a group path alone, which grants no page', async () => {
    const { user } = setup();
    await screen.findByText('Menu only');
    await user.click(rowOf('Menu only').getByRole('button', { name: 'Edit' }));
    const drawer = await findDialog('Edit role "Menu only"');
    expect(drawer.getByTestId('paths-checked').textContent).toBe(`0 of ${LEAF_PATHS.length} pages selected`);
  });

  it('lets a manager give a role the company’s authorization assets, with an explanation', async () => {
    const { api, user } = setup();
    await screen.findByText('Optimizer');
    await user.click(rowOf('Optimizer').getByRole('button', { name: 'Edit' }));
    const drawer = await findDialog('Edit role "Optimizer"');
    expect(drawer.getByText(/members of this role see every personal account, ad account, page, pixel and site of the company/)).toBeTruthy();
    const toggle = drawer.getByRole('switch', { name: 'Authorization assets' });
    expect(toggle.getAttribute('aria-checked')).toBe('false');
    await user.click(toggle);
    await user.click(drawer.getByRole('button', { name: /Save/ }));
    await waitFor(() =>
      expect(api.lastBody('/sys-roles/edit')).toEqual({ id: 1, name: 'Optimizer', remark: 'Publishes and watches', paths: ['/index', '/advertising', '/advertising/publish', '/advertising/user'], asset_scope: 'company' }),
    );
  });

  it('shows a non-manager the asset scope switch locked, and no actions on roles the server says they may not change', async () => {
    const { api, user, backend } = setup('/sys/role', staffEditor);
    backend.db.roles[0]!.editable = false;
    await screen.findByText('Optimizer');
    expect(rowOf('Optimizer').queryByRole('button', { name: 'Edit' })).toBeNull();
    expect(rowOf('Menu only').getByRole('button', { name: 'Edit' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: /New role/ }));
    const drawer = await findDialog('New role');
    expect(drawer.getByRole('switch', { name: 'Authorization assets' }).hasAttribute('disabled')).toBe(true);
    expect(drawer.getByText(/Only managers can change this/)).toBeTruthy();
    await user.type(drawer.getByLabelText('Role name'), 'Pixel clerk');
    await user.click(treeCheckbox('Pixels'));
    await user.click(drawer.getByRole('button', { name: /Save/ }));
    await waitFor(() => expect(api.lastBody('/sys-roles/create')).toEqual({ name: 'Pixel clerk', remark: '', paths: ['/auth', '/auth/pixel'], asset_scope: 'own' }));
  });

  it('selects every page or none with one click', async () => {
    const { user } = setup();
    await screen.findByText('Optimizer');
    await user.click(screen.getByRole('button', { name: /New role/ }));
    const drawer = await findDialog('New role');
    await user.click(drawer.getByRole('button', { name: 'Select all' }));
    expect(drawer.getByTestId('paths-checked').textContent).toBe(`${LEAF_PATHS.length} of ${LEAF_PATHS.length} pages selected`);
    await user.click(drawer.getByRole('button', { name: 'Select none' }));
    expect(drawer.getByTestId('paths-checked').textContent).toBe(`0 of ${LEAF_PATHS.length} pages selected`);
  });

  it('says how many members lose the permissions before deleting a role', async () => {
    const { api, user } = setup();
    await screen.findByText('Optimizer');
    await user.click(rowOf('Optimizer').getByRole('button', { name: 'Delete' }));
    const confirm = await findDialog('Delete the role "Optimizer"?');
    expect(confirm.getByText(/Members losing the pages this role grants: 12/)).toBeTruthy();
    expect(api.count('/sys-roles/delete')).toBe(0);
    await user.click(confirm.getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(api.lastBody('/sys-roles/delete')).toEqual({ id: 1 }));
    await waitFor(() => expect(screen.queryByText('Optimizer')).toBeNull());
  });
});
