import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildDepartment, buildSimpleUser } from '@/testing/factories';
import { findDialog, rowOf } from '@/testing/dom';
import { mockApi, type Handlers } from '@/testing/mock-api';
import { manager, renderScreen } from '@/testing/render';
import { sysBackend } from '@/testing/sys-backend';
import DepartmentPage from './department-page';

function tree() {
  const teamA = buildDepartment({ id: 3, name: 'Team A', parent_id: 2, sort: 1, member_count: 4, leader_id: 50, leader_name: 'Lily' });
  const teamB = buildDepartment({ id: 4, name: 'Team B', parent_id: 2, sort: 2, member_count: 0 });
  const ops = buildDepartment({ id: 2, name: 'Operations', parent_id: 1, member_count: 1, children: [teamA, teamB] });
  const hq = buildDepartment({ id: 1, name: 'Head office', children: [ops] });
  const shop = buildDepartment({ id: 5, name: 'Shop', sort: 2, member_count: 2 });
  return [hq, shop];
}

function setup({ departments = tree(), overrides = {}, viewer = manager }: { departments?: ReturnType<typeof tree>; overrides?: Handlers; viewer?: typeof manager } = {}) {
  const backend = sysBackend({
    departments,
    simpleUsers: [buildSimpleUser({ id: 50, account: 'lily', name: 'Lily' }), buildSimpleUser({ id: 51, account: 'max', name: 'Max' })],
  });
  const api = mockApi({ ...backend.handlers, ...overrides });
  const view = renderScreen(<DepartmentPage />, { url: '/sys/department', user: viewer });
  return { ...view, api, backend };
}

describe('department page', { timeout: 60_000 }, () => {
  it('shows the whole tree expanded with leaders and member counts', async () => {
    setup();
    expect(screen.getByRole('heading', { name: 'Departments' })).toBeTruthy();
    await screen.findByText('Team A');
    expect(rowOf('Team A').getByText('Lily')).toBeTruthy();
    expect(rowOf('Team A').getByText('4')).toBeTruthy();
    expect(rowOf('Operations').getByText('5 incl. sub-departments')).toBeTruthy();
    expect(rowOf('Shop').getByText('Not set')).toBeTruthy();
    expect(screen.getByText('Departments: 5, members: 7')).toBeTruthy();
  });

  it('filters the tree by name or leader, keeping the parents of what it finds', async () => {
    const { user } = setup();
    await screen.findByText('Team A');
    await user.type(screen.getByLabelText('Search departments or leaders'), 'lil');
    await waitFor(() => expect(screen.queryByText('Shop')).toBeNull());
    expect(screen.getByText('Head office')).toBeTruthy();
    expect(screen.getByText('Team A')).toBeTruthy();
    expect(screen.queryByText('Team B')).toBeNull();

    await user.clear(screen.getByLabelText('Search departments or leaders'));
    await user.type(screen.getByLabelText('Search departments or leaders'), 'nothing-like-this');
    expect(await screen.findByText('No department or leader contains "nothing-like-this"')).toBeTruthy();
  });

  it('offers to create the first department when there is none', async () => {
    const { api, user } = setup({ departments: [] });
    await user.click(await screen.findByRole('button', { name: /Create the first department/ }));
    const form = await findDialog('New department');
    await user.click(form.getByRole('button', { name: /Save/ }));
    expect(await form.findByText('Enter a department name')).toBeTruthy();
    expect(api.count('/sys-departments/create')).toBe(0);

    await user.type(form.getByLabelText('Name'), '  Sales  ');
    await user.click(form.getByRole('button', { name: /Save/ }));
    await waitFor(() => expect(api.lastBody('/sys-departments/create')).toEqual({ name: 'Sales', parent_id: null, sort: 0, leader_id: null }));
    expect(await screen.findByText('Sales')).toBeTruthy();
  });

  it('creates a sub-department under the chosen department', async () => {
    const { api, user } = setup();
    await screen.findByText('Team A');
    await user.click(rowOf('Operations').getByRole('button', { name: 'Add sub' }));
    const form = await findDialog('New department under "Operations"');
    await user.type(form.getByLabelText('Name'), 'Team C');
    await user.click(form.getByRole('button', { name: /Save/ }));
    await waitFor(() => expect(api.lastBody('/sys-departments/create')).toEqual({ name: 'Team C', parent_id: 2, sort: 0, leader_id: null }));
  });

  it('renames a department', async () => {
    const { api, user } = setup();
    await screen.findByText('Team A');
    await user.click(rowOf('Team B').getByRole('button', { name: 'Edit' }));
    const form = await findDialog('Edit department "Team B"');
    await user.clear(form.getByLabelText('Name'));
    await user.type(form.getByLabelText('Name'), 'Team Bee');
    await user.click(form.getByRole('button', { name: /Save/ }));
    await waitFor(() => expect(api.lastBody('/sys-departments/edit')).toEqual({ id: 4, name: 'Team Bee', sort: 2 }));
  });

  it('moves a department, never under itself or its sub-departments', async () => {
    const { api, user } = setup();
    await screen.findByText('Team A');
    await user.click(rowOf('Operations').getByRole('button', { name: 'Move' }));
    const form = await findDialog('Move department "Operations"');
    expect(form.getByText('Now under: Head office')).toBeTruthy();
    await user.click(form.getByLabelText('Parent department'));
    const popup = document.querySelector('.ant-select-dropdown:not(.ant-select-dropdown-hidden)') as HTMLElement;
    await waitFor(() => expect(popup.textContent).toContain('Shop'));
    expect(popup.textContent).toContain('Head office');
    expect(popup.textContent).not.toContain('Operations');
    expect(popup.textContent).not.toContain('Team A');
    await user.click(await screen.findByTitle('Shop'));
    await user.click(form.getByRole('button', { name: /Save/ }));
    await waitFor(() => expect(api.lastBody('/sys-departments/edit')).toEqual({ id: 2, parent_id: 5 }));
  });

  it('sets and clears the leader with a searchable user picker', async () => {
    const { api, user } = setup();
    await screen.findByText('Team A');
    await user.click(rowOf('Team B').getByRole('button', { name: 'Leader' }));
    let form = await findDialog('Leader of "Team B"');
    await user.type(form.getByLabelText('Leader'), 'Ma');
    await waitFor(() => expect(api.lastBody('/sys-users/simple_list')).toEqual({ keyword: 'Ma' }));
    await user.click(await screen.findByTitle('Max (max)'));
    await user.click(form.getByRole('button', { name: /Save/ }));
    await waitFor(() => expect(api.lastBody('/sys-departments/edit')).toEqual({ id: 4, leader_id: 51 }));

    await user.click(rowOf('Team A').getByRole('button', { name: 'Leader' }));
    form = await findDialog('Leader of "Team A"');
    expect(form.getByTitle('Lily (lily)')).toBeTruthy();
    const clear = form.getByLabelText('close-circle', { selector: '[aria-label]' });
    await user.click(clear);
    await user.click(form.getByRole('button', { name: /Save/ }));
    await waitFor(() => expect(api.lastBody('/sys-departments/edit')).toEqual({ id: 3, leader_id: null }));
  });

  it('shows a non-manager the part they manage under the path of the departments above it, and no leader appointments', async () => {
    // As the server answers a staff member of Operations: their subtree, its root naming what is above.
    const teamA = buildDepartment({ id: 3, name: 'Team A', parent_id: 2, member_count: 4, leader_id: 50, leader_name: 'Lily' });
    const ops = buildDepartment({ id: 2, name: 'Operations', parent_id: 1, member_count: 1, children: [teamA], ancestors: [{ id: 1, name: 'Head office' }] });
    const staff = { ...manager, id: 60, account: 'hr', is_admin: 0, department_id: 2, paths: ['/index', '/sys', '/sys/department'] };
    const { user } = setup({ departments: [ops], viewer: staff });
    await screen.findByText('Team A');
    expect(screen.getByTestId('department-ancestors').textContent).toBe('Above: Head office');
    expect(screen.queryByRole('row', { name: /Head office/ })).toBeNull();
    expect(screen.getByText('Departments: 2, members: 5')).toBeTruthy();
    // Their own department stays read-only; below it they may edit, but appointing a leader is for managers.
    expect(rowOf('Operations').queryByRole('button', { name: 'Edit' })).toBeNull();
    expect(rowOf('Team A').getByRole('button', { name: 'Delete' })).toBeTruthy();
    expect(rowOf('Team A').queryByRole('button', { name: 'Leader' })).toBeNull();
    await user.click(rowOf('Operations').getByRole('button', { name: 'Add sub' }));
    const form = await findDialog('New department under "Operations"');
    expect(form.queryByLabelText('Leader')).toBeNull();
  });

  it("asks before deleting and shows the server's refusal with its count in the dialog", async () => {
    const { api, user } = setup();
    await screen.findByText('Team A');
    await user.click(rowOf('Team A').getByRole('button', { name: 'Delete' }));
    const confirm = await findDialog('Delete the department "Team A"?');
    expect(confirm.getByText("It still has 4 member(s); move them to another department first.")).toBeTruthy();
    expect(api.count('/sys-departments/delete')).toBe(0);
    await user.click(confirm.getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(api.lastBody('/sys-departments/delete')).toEqual({ id: 3 }));
    expect((await confirm.findByTestId('confirm-error')).textContent).toContain('This department still has 4 members.');
    // Still open for the user to read; nothing was removed.
    expect(screen.getByText('Team A')).toBeTruthy();
  });

  it('deletes an empty department after confirmation', async () => {
    const { api, user } = setup();
    await screen.findByText('Team A');
    await user.click(rowOf('Team B').getByRole('button', { name: 'Delete' }));
    const confirm = await findDialog('Delete the department "Team B"?');
    await user.click(confirm.getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(api.lastBody('/sys-departments/delete')).toEqual({ id: 4 }));
    await waitFor(() => expect(screen.queryByText('Team B')).toBeNull());
  });
});
