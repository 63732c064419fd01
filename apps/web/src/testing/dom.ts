import { screen, waitFor, within } from '@testing-library/react';

/**
 * The open dialog (modal, confirm or drawer) whose title is `title`. antd gives every dialog the
 * same aria-labelledby id under NODE_ENV=test, so accessible names cannot be trusted here.
 */
export async function findDialog(title: string | RegExp) {
  const matches = (text: string | null | undefined) => (typeof title === 'string' ? text === title : title.test(text ?? ''));
  const el = await waitFor(() => {
    const found = screen.getAllByRole('dialog').find((d) => matches(d.querySelector('.ant-modal-title, .ant-drawer-title')?.textContent));
    if (!found) throw new Error(`no open dialog titled ${String(title)}`);
    return found;
  });
  return within(el as HTMLElement);
}

/** The table row that shows `text`. */
export const rowOf = (text: string) => within(screen.getByText(text).closest('tr')!);
