import { act, screen, waitFor } from '@testing-library/react';
import { Button, Drawer, Input } from 'antd';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { renderScreen } from '@/testing/render';
import { useDrawerFocusReturn } from './use-drawer-focus-return';

function Screen() {
  const [open, setOpen] = useState(false);
  const focusReturn = useDrawerFocusReturn(open);
  return (
    <>
      <Button onClick={() => setOpen(true)}>Open</Button>
      <Input aria-label="Keyword" />
      <Drawer open={open} onClose={() => setOpen(false)} title="Details" destroyOnHidden {...focusReturn}>
        <Button onClick={() => setOpen(false)}>Done</Button>
      </Drawer>
    </>
  );
}

describe('drawer focus return', () => {
  it('gives focus back to the opener when the drawer closes with focus inside it', async () => {
    const { user } = renderScreen(<Screen />);
    const opener = screen.getByRole('button', { name: 'Open' });
    await user.click(opener);
    await user.click(await screen.findByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Done' })).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(opener));
  });

  it('leaves focus where the person put it after closing: an Enter in the search box stays there', async () => {
    const { user } = renderScreen(<Screen />);
    const opener = screen.getByRole('button', { name: 'Open' });
    await user.click(opener);
    const done = await screen.findByRole('button', { name: 'Done' });
    const keyword = screen.getByRole('textbox', { name: 'Keyword' });
    // Closed, and before the drawer has finished closing the person is already in the search box.
    act(() => {
      done.click();
      keyword.focus();
    });
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Done' })).toBeNull());
    expect(document.activeElement).toBe(keyword);
  });
});
