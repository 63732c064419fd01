import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { findDialog } from '@/testing/dom';
import { mockApi, MockRefusal } from '@/testing/mock-api';
import { manager, renderScreen } from '@/testing/render';
import { HeaderBar } from './header-bar';

const noop = () => undefined;

async function openReset() {
  const screenApi = renderScreen(<HeaderBar collapsed={false} onToggle={noop} onRefresh={noop} />);
  await screenApi.user.click(screen.getByRole('button', { name: 'User menu' }));
  await screenApi.user.click(await screen.findByText('Reset password'));
  return { ...screenApi, dialog: await findDialog('Reset password') };
}

describe('the header’s reset password', () => {
  it("resets the current user's own password through the endpoint table and shows the new one", async () => {
    const api = mockApi({ '/sys-users/reset_passwd': () => ({ new_passwd: 'Fresh-Pass-42' }) });
    const { user, dialog } = await openReset();
    await user.click(dialog.getByRole('button', { name: 'OK' }));
    const result = await screen.findByTestId('reset-result');
    expect(api.bodies('/sys-users/reset_passwd')).toEqual([{ currentUserId: manager.id }]);
    expect(result.textContent).toContain(`Account: ${manager.account}`);
    expect(result.textContent).toContain('Fresh-Pass-42');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('says the reset failed and stays open when the server refuses', async () => {
    mockApi({ '/sys-users/reset_passwd': () => new MockRefusal('not now') });
    const { user, dialog } = await openReset();
    await user.click(dialog.getByRole('button', { name: 'OK' }));
    expect(await screen.findByText('Reset failed')).toBeTruthy();
    expect(screen.queryByTestId('reset-result')).toBeNull();
    expect(dialog.getByText(/resets the current account's password/)).toBeTruthy();
  });
});
