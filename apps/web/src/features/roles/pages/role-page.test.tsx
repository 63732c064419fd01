import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildRole } from '@/testing/factories';
import { findDialog, rowOf } from '@/testing/dom';
import { mockApi } from '@/testing/mock-api';
import { renderScreen } from '@/testing/render';
import { sysBackend } from '@/testing/sys-backend';
import { LEAF_PATHS } from '../components/route-paths';
import RolePage from './role-page';

function setup(url = '/sys/role') {
  const backend = sysBackend({
    roles: [
      buildRole({ id: 1, name: 'Optimizer', remark: 'Publishes and watches', paths: ['/index', '/advertising/publish', '/advertising/user'], member_count: 12 }),
      // A group grants its whole subtree.
      buildRole({ id: 2, name: 'Auth clerk', paths: ['/auth'], member_count: 0 }),
    ],
  });
  const api = mockApi(backend.handlers);
  const view = renderScreen(<RolePage />, { url });
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
    expect(screen.getByText('2 in total')).toBeTruthy();
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

  it('asks for a name before sending a new role, then saves only the checked leaf paths', async () => {
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
      expect(api.lastBody('/sys-roles/create')).toEqual({ name: 'Clerk', remark: '', paths: ['/index', '/sys/accounts', '/sys/department', '/sys/role'] }),
    );
  });

  it('opens a role with its paths ticked (a granted group as all its pages) and saves them as leaves', async () => {
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
        paths: ['/auth/homepage', '/auth/site', '/auth/account', '/auth/personage'],
      }),
    );
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
