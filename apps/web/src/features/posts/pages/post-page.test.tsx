import type { PagePost } from '@ads/contracts';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { findDialog } from '@/testing/dom';
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
});
