import type { PagePost } from '@ads/contracts';
import { screen, waitFor } from '@testing-library/react';
import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { findDialog, rowOf } from '@/testing/dom';
import { mockApi } from '@/testing/mock-api';
import { renderScreen } from '@/testing/render';
import PostPage from './post-page';

const post = (over: Partial<PagePost>): PagePost => ({
  id: 1,
  batch_id: 'b1',
  page: { id: 31, name: 'Drama Page', platform_id: '555' },
  kind: 'video',
  material: { id: 601, name: 'clip-601.mp4' },
  message: 'Episode 1 is out',
  link: 'https://drama.example.com/play/1',
  call_to_action: 'WATCH_MORE',
  published: false,
  scheduled_at: null,
  status: 'created',
  platform_post_id: '555_777',
  error: null,
  created_by: { id: 1, name: 'manager' },
  created_at: '2026-11-01T08:00:00.000Z',
  posted_at: '2026-11-01T08:00:03.000Z',
  ...over,
});

const pages = { list: [{ id: 31, platform_id: '555', name: 'Drama Page', picture_url: null, has_token: true }, { id: 32, platform_id: '556', name: 'Old Page', picture_url: null, has_token: false }] };

describe('page posts', { timeout: 30_000 }, () => {
  it('lists posts with status, material and the platform’s reason; filters go to the server', async () => {
    const api = mockApi({
      '/page-posts/pages': () => pages,
      '/page-posts/list': (b) => {
        const all = [post({ id: 2, status: 'failed', platform_post_id: null, error: 'No personal account holds a working token of this page.', kind: 'photo', material: { id: 603, name: 'poster.png' }, message: 'Poster' }), post({})];
        const list = b.status ? all.filter((p) => p.status === b.status) : all;
        return { list, total: list.length };
      },
    });
    renderScreen(<PostPage />, { url: '/advertising/post?status=failed' });
    expect(await screen.findByText('No personal account holds a working token of this page.')).toBeTruthy();
    expect(screen.queryByText('555_777')).toBeNull();
    await waitFor(() => expect(api.lastBody('/page-posts/list')).toMatchObject({ status: 'failed' }));
  });

  it('retries a batch’s failed posts after confirming, then shows that batch’s results post by post', async () => {
    let retried = false;
    const batch = () => [
      post({ id: 3, batch_id: 'b9', status: retried ? 'created' : 'failed', platform_post_id: retried ? '556_900' : null, error: retried ? null : '(#200) missing permissions', page: { id: 32, name: 'Old Page', platform_id: '556' } }),
      post({ id: 4, batch_id: 'b9' }),
    ];
    const api = mockApi({
      '/page-posts/pages': () => pages,
      '/page-posts/list': (b) => {
        const all = b.batch_id ? batch() : [...batch(), post({ id: 1, batch_id: 'b1', message: 'Another batch' })];
        const list = b.status ? all.filter((p) => p.status === b.status) : all;
        return { list, total: list.length };
      },
      '/page-posts/retry_failed': () => {
        retried = true;
        return { items: 1, task_id: 77 };
      },
    });
    const { user } = renderScreen(<PostPage />, { url: '/advertising/post' });
    expect(await screen.findByText('(#200) missing permissions')).toBeTruthy();
    expect(screen.getByText('Another batch')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Retry failed in this batch' }));
    const confirm = await findDialog('Retry the batch’s failed posts?');
    await user.click(confirm.getByRole('button', { name: /OK|Confirm/ }));
    await waitFor(() => expect(api.bodies('/page-posts/retry_failed')).toEqual([{ batch_id: 'b9' }]));
    // The batch alone, each post with its result.
    expect(await screen.findByText('Batch b9')).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('post-batch').textContent).toContain('2 posts: 2 created, 0 failed, 0 under way'));
    expect(screen.getByText('556_900')).toBeTruthy();
    expect(screen.queryByText('Another batch')).toBeNull();
    expect(screen.queryByText('(#200) missing permissions')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Show all posts' }));
    expect(await screen.findByText('Another batch')).toBeTruthy();
  });

  it('shows the empty state', async () => {
    mockApi({ '/page-posts/pages': () => pages, '/page-posts/list': () => ({ list: [], total: 0 }) });
    renderScreen(<PostPage />, { url: '/advertising/post' });
    expect(await screen.findByText('No posts yet: create some for your pages under "Create posts"')).toBeTruthy();
  });

  it('checks the form, then creates link posts on a page after confirming', async () => {
    const api = mockApi({
      '/page-posts/pages': () => pages,
      '/page-posts/materials': () => ({ list: [{ id: 601, kind: 'video', file_name: 'clip-601.mp4' }], total: 1 }),
      '/page-posts/list': () => ({ list: [], total: 0 }),
      '/page-posts/create': () => ({ batch_id: 'b2', task_id: 9, count: 1 }),
    });
    const { user } = renderScreen(<PostPage />, { url: '/advertising/post?tab=create' });
    await user.click(await screen.findByRole('button', { name: 'Create posts' }));
    expect(await screen.findByText('Choose at least one page')).toBeTruthy();
    expect(screen.getByText('Enter the text')).toBeTruthy();
    expect(screen.getByText('A link post needs a link')).toBeTruthy();

    await user.click(screen.getByRole('combobox', { name: 'Pages' }));
    await user.click(await screen.findByTitle('Drama Page'));
    await user.type(screen.getByRole('textbox', { name: 'Text 1' }), 'Read the story');
    await user.type(screen.getByRole('textbox', { name: 'Link 1' }), 'https://drama.example.com/story');
    await user.click(screen.getByRole('radio', { name: 'Unpublished (for ads only)' }));
    expect(screen.getByTestId('post-count').textContent).toBe('1 posts will be created (1 posts × 1 pages)');
    await user.click(screen.getByRole('button', { name: 'Create posts' }));
    const confirm = await findDialog('Create 1 posts?');
    await user.click(confirm.getByRole('button', { name: /OK|Confirm/ }));
    await waitFor(() =>
      expect(api.bodies('/page-posts/create')).toEqual([{ page_ids: [31], published: false, posts: [{ material_id: null, message: 'Read the story', link: 'https://drama.example.com/story', call_to_action: null }] }]),
    );
  });

  it('shows a page’s posts from the platform, made here or elsewhere, scheduled ones with their time, with cursor paging', async () => {
    const p = (id: string, over: Record<string, unknown> = {}) => ({ id, message: `Post ${id}`, created_time: '2026-11-01T08:00:00.000Z', is_published: true, media_type: 'photo' as const, picture: null, link: null, permalink: null, scheduled_publish_time: null, local_id: null, ...over });
    const api = mockApi({
      '/page-posts/pages': () => pages,
      '/page-posts/list': () => ({ list: [], total: 0 }),
      '/page-posts/platform': (b) =>
        b.after === 'c1'
          ? { list: [p('555_1')], after: null }
          : { list: [p('555_3', { local_id: 7, is_published: false, scheduled_publish_time: '2026-12-01T10:00:00.000Z' }), p('555_2', { is_published: false })], after: 'c1' },
    });
    const { user } = renderScreen(<PostPage />, { url: '/advertising/post?tab=platform' });
    expect(await screen.findAllByText('Choose a page to see its posts on the platform')).toBeTruthy();
    await user.click(screen.getByRole('combobox', { name: 'Page' }));
    await user.click(await screen.findByTitle('Drama Page'));
    expect(await screen.findByText('Post 555_3')).toBeTruthy();
    expect(screen.getByText(/^Scheduled for /)).toBeTruthy();
    expect(screen.getByText('Here')).toBeTruthy();
    expect(screen.getByText('Elsewhere')).toBeTruthy();
    expect(screen.getByText('Unpublished')).toBeTruthy();
    expect(api.lastBody('/page-posts/platform')).toEqual({ page_id: 31, limit: 10 });
    expect((screen.getByRole('button', { name: 'Previous' }) as HTMLButtonElement).disabled).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Post 555_1')).toBeTruthy();
    expect(screen.getByText('Page 2')).toBeTruthy();
    await waitFor(() => expect((screen.getByRole('button', { name: 'Next' }) as HTMLButtonElement).disabled).toBe(true));
    await user.click(screen.getByRole('button', { name: 'Previous' }));
    expect(await screen.findByText('Post 555_3')).toBeTruthy();
  });

  it('schedules posts: a time is required and must fall 15 minutes to 30 days ahead; the batch goes unpublished with it', async () => {
    const api = mockApi({
      '/page-posts/pages': () => pages,
      '/page-posts/materials': () => ({ list: [], total: 0 }),
      '/page-posts/list': () => ({ list: [], total: 0 }),
      '/page-posts/create': () => ({ batch_id: 'b3', task_id: 10, count: 1 }),
    });
    const { user } = renderScreen(<PostPage />, { url: '/advertising/post?tab=create' });
    await user.click(await screen.findByRole('combobox', { name: 'Pages' }));
    await user.click(await screen.findByTitle('Drama Page'));
    await user.type(screen.getByRole('textbox', { name: 'Text 1' }), 'Tonight at eight');
    await user.type(screen.getByRole('textbox', { name: 'Link 1' }), 'https://drama.example.com/8');
    await user.click(screen.getByRole('radio', { name: /^Schedule/ }));
    await user.click(screen.getByRole('button', { name: 'Create posts' }));
    expect(await screen.findByText('Choose when the posts go live')).toBeTruthy();

    const field = screen.getByRole('textbox', { name: 'Goes live at' });
    const typeTime = async (d: dayjs.Dayjs) => {
      await user.clear(field);
      await user.type(field, `${d.format('YYYY-MM-DD HH:mm')}{Enter}`);
    };
    await typeTime(dayjs().add(5, 'minute'));
    expect(await screen.findByText('Choose a time at least 15 minutes from now')).toBeTruthy();
    await typeTime(dayjs().add(31, 'day'));
    expect(await screen.findByText('Choose a time at most 30 days from now')).toBeTruthy();
    const when = dayjs().add(2, 'hour');
    await typeTime(when);
    await waitFor(() => expect(screen.queryByText(/Choose a time at/)).toBeNull());
    await user.click(screen.getByRole('button', { name: 'Create posts' }));
    const confirm = await findDialog('Create 1 posts?');
    await user.click(confirm.getByRole('button', { name: /OK|Confirm/ }));
    await waitFor(() => expect(api.count('/page-posts/create')).toBe(1));
    expect(api.lastBody('/page-posts/create')).toMatchObject({ published: false, scheduled_at: when.second(0).millisecond(0).toISOString() });
  });

  it('reschedules a post that is still ahead: a time in the window, a confirmation, then its result; other posts offer no action', async () => {
    const at = dayjs().add(2, 'hour').second(0).millisecond(0).toISOString();
    let moved: string | null = null;
    const api = mockApi({
      '/page-posts/pages': () => pages,
      '/page-posts/list': () => {
        const list = [post({ id: 5, message: 'Later tonight', scheduled_at: moved ?? at }), post({ id: 6, message: 'Already out', published: true })];
        return { list, total: list.length };
      },
      '/page-posts/reschedule': (b) => {
        moved = b.scheduled_at;
        return { results: [{ id: 5, result: 'ok', error: null }] };
      },
    });
    const { user } = renderScreen(<PostPage />, { url: '/advertising/post' });
    expect(await screen.findByText('Later tonight')).toBeTruthy();
    expect(rowOf('Already out').queryByRole('button', { name: 'Reschedule' })).toBeNull();
    expect(rowOf('Already out').queryByRole('button', { name: 'Cancel post' })).toBeNull();
    await user.click(rowOf('Later tonight').getByRole('button', { name: 'Reschedule' }));
    const dialog = await findDialog('Reschedule 1 scheduled posts');
    expect(dialog.getByText(`Goes live now at ${dayjs(at).format('YYYY-MM-DD HH:mm')}`)).toBeTruthy();

    await user.click(dialog.getByRole('button', { name: 'Reschedule' }));
    expect(await dialog.findByText('Choose when the posts go live')).toBeTruthy();
    const field = dialog.getByRole('textbox', { name: 'Goes live at' });
    await user.type(field, `${dayjs().add(5, 'minute').format('YYYY-MM-DD HH:mm')}{Enter}`);
    expect(await dialog.findByText('Choose a time at least 15 minutes from now')).toBeTruthy();
    const when = dayjs().add(5, 'hour').second(0).millisecond(0);
    await user.clear(field);
    await user.type(field, `${when.format('YYYY-MM-DD HH:mm')}{Enter}`);
    await waitFor(() => expect(dialog.queryByText(/Choose a time at/)).toBeNull());
    await user.click(dialog.getByRole('button', { name: 'Reschedule' }));
    const confirm = await findDialog(`Move 1 posts to go live at ${when.format('YYYY-MM-DD HH:mm')}?`);
    expect(api.count('/page-posts/reschedule')).toBe(0);
    await user.click(confirm.getByRole('button', { name: /OK|Confirm/ }));
    await waitFor(() => expect(api.bodies('/page-posts/reschedule')).toEqual([{ ids: [5], scheduled_at: when.toISOString() }]));
    const results = await findDialog('Results');
    expect(results.getByText('Rescheduled: 1 done, 0 failed')).toBeTruthy();
    expect(results.getByText('Done')).toBeTruthy();
    await user.click(results.getByText('Close'));
    expect(await screen.findByText(`Goes live ${when.format('YYYY-MM-DD HH:mm')}`)).toBeTruthy();
  });

  it('cancels selected posts after a confirmation that says they are deleted from the page, and shows each post’s result', async () => {
    const at = dayjs().add(3, 'hour').toISOString();
    const cancelled = new Set<number>();
    const api = mockApi({
      '/page-posts/pages': () => pages,
      '/page-posts/list': () => {
        const list = [
          post({ id: 7, message: 'First to drop', scheduled_at: at }),
          post({ id: 8, message: 'Second to drop', scheduled_at: at, page: { id: 32, name: 'Old Page', platform_id: '556' } }),
          post({ id: 9, message: 'Went live', scheduled_at: dayjs().subtract(1, 'hour').toISOString(), published: true }),
        ].map((p) => (cancelled.has(p.id) ? { ...p, status: 'cancelled' as const } : p));
        return { list, total: list.length };
      },
      '/page-posts/cancel': (b) => {
        cancelled.add(7);
        return {
          results: b.ids.map((id) => (id === 7 ? { id, result: 'ok' as const, error: null } : { id, result: 'failed' as const, error: 'The ad platform answered with an error: (#200) missing permissions' })),
        };
      },
    });
    const { user } = renderScreen(<PostPage />, { url: '/advertising/post' });
    expect(await screen.findByText('First to drop')).toBeTruthy();
    expect((screen.getByRole('checkbox', { name: 'Select post: Went live' }) as HTMLInputElement).disabled).toBe(true);
    await user.click(screen.getByRole('checkbox', { name: 'Select post: First to drop' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select post: Second to drop' }));
    await user.click(screen.getByRole('button', { name: 'Cancel selected posts' }));
    const confirm = await findDialog('Cancel 2 scheduled posts?');
    expect(confirm.getByText(/will be deleted from their pages and will never go live; this cannot be undone/)).toBeTruthy();
    expect(api.count('/page-posts/cancel')).toBe(0);
    await user.click(confirm.getByRole('button', { name: 'Yes, cancel them' }));
    await waitFor(() => expect(api.bodies('/page-posts/cancel')).toEqual([{ ids: [7, 8] }]));
    const results = await findDialog('Results');
    expect(results.getByText('Cancelled: 1 done, 1 failed')).toBeTruthy();
    expect(results.getByText('The ad platform answered with an error: (#200) missing permissions')).toBeTruthy();
    expect(results.getByText('Old Page')).toBeTruthy();
    await user.click(results.getByText('Close'));
    // The cancelled post shows so and offers nothing more; the failed one stays selected, to try again.
    await waitFor(() => expect(rowOf('First to drop').getByText('Cancelled')).toBeTruthy());
    expect(rowOf('First to drop').queryByRole('button', { name: 'Cancel post' })).toBeNull();
    expect(rowOf('Second to drop').getByRole('button', { name: 'Cancel post' })).toBeTruthy();
    expect(screen.getByTestId('selection-bar').textContent).toContain('1 selected');
  });
});
