import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildDrama, buildPixel, buildProduct, buildSite } from '@/testing/asset-factories';
import { assetsBackend, ROTATED_SECRET, SITE_SECRET } from '@/testing/assets-backend';
import { findDialog, rowOf } from '@/testing/dom';
import { mockApi } from '@/testing/mock-api';
import { renderScreen } from '@/testing/render';
import SitesPage from './sites-page';

const dramaSite = buildSite({
  id: 5,
  name: 'Drama Land',
  domain: 'drama.example.com',
  platform: 'dj',
  link_template: 'https://drama.example.com/play?id={drama_id}&ep={episode}&cid={campaign_id}',
  pixel: { id: 21, name: 'Main pixel' },
  webhook_url: 'https://ads.example.com/api/orders/webhook/5',
  catalog_count: 2,
});
const shop = buildSite({ id: 6, name: 'Linen Shop', domain: 'shop.example.com', platform: 'ec', link_template: 'https://shop.example.com/p/{product_id}', catalog_count: 1 });

function setup(url = '/auth/site') {
  const backend = assetsBackend({
    pixels: [buildPixel({ id: 21, name: 'Main pixel', platform_id: '888021' })],
    sites: [dramaSite, shop],
    dramas: [
      buildDrama({ id: 41, site: { id: 5, name: 'Drama Land' }, external_id: 'D10086', name: 'The Billionaire Returns', episode_count: 80, tags: ['romance', 'revenge'], test_status: 'passed', cover_url: 'https://cdn.example.com/c/41.jpg' }),
      buildDrama({ id: 42, site: { id: 5, name: 'Drama Land' }, external_id: 'D10087', name: 'Moonlight Contract', language: 'es', test_status: 'testing' }),
    ],
    products: [buildProduct({ id: 51, site: { id: 6, name: 'Linen Shop' }, external_id: 'SKU-1', name: 'Linen shirt', price: 2980, currency: 'JPY' })],
  });
  const api = mockApi(backend.handlers);
  const view = renderScreen(<SitesPage />, { url });
  return { ...view, api, backend };
}

const upload = async (user: ReturnType<typeof setup>['user'], name: string, text: string) => {
  const input = document.querySelector('.ant-modal input[type=file]') as HTMLInputElement;
  await user.upload(input, new File([text], name, { type: name.endsWith('.csv') ? 'text/csv' : 'application/octet-stream' }));
};

describe('sites page', { timeout: 60_000 }, () => {
  it('lists the sites and opens the first: its settings, the expanded link and its drama catalog', async () => {
    const { api, router, container } = setup();
    expect(screen.getByRole('heading', { name: 'Sites' })).toBeTruthy();
    const list = within(await screen.findByRole('listbox', { name: 'Sites' }));
    expect(list.getByText('Drama Land')).toBeTruthy();
    expect(list.getByText('2 dramas')).toBeTruthy();
    expect(list.getByText('1 product')).toBeTruthy();
    await waitFor(() => expect(new URLSearchParams(router.state.location.search).get('site')).toBe('5'));
    expect((await screen.findByTestId('webhook-url')).textContent).toContain('https://ads.example.com/api/orders/webhook/5');
    expect(screen.getAllByTestId('link-preview')[0]!.textContent).toBe('https://drama.example.com/play?id=10086&ep=1&cid=120211000000000001');

    await screen.findByText('The Billionaire Returns');
    const drama = rowOf('The Billionaire Returns');
    expect(drama.getByText('ID D10086')).toBeTruthy();
    expect(drama.getByText('80')).toBeTruthy();
    expect(drama.getByText('romance')).toBeTruthy();
    expect(drama.getByText('Passed')).toBeTruthy();
    expect(rowOf('Moonlight Contract').getByText('Testing')).toBeTruthy();
    expect(container.querySelector('img[src="https://cdn.example.com/c/41.jpg"]')).toBeTruthy();
    expect(api.lastBody('/dramas/list')).toEqual({ page: 1, page_size: 20, site_id: 5 });
  });

  it("shows a shop's products with their price in its currency", async () => {
    const { api, user } = setup();
    await screen.findByText('The Billionaire Returns');
    await user.click(within(screen.getByRole('listbox', { name: 'Sites' })).getByText('Linen Shop'));
    await screen.findByText('Linen shirt');
    expect(rowOf('Linen shirt').getByText('JPY 2,980')).toBeTruthy();
    expect(api.lastBody('/products/list')).toEqual({ page: 1, page_size: 20, site_id: 6 });
  });

  it('previews the landing link live while typing and refuses unknown placeholders', async () => {
    const { api, user } = setup();
    await screen.findByText('The Billionaire Returns');
    await user.click(screen.getAllByRole('button', { name: /New site/ })[0]!);
    const drawer = await findDialog('New site');
    await user.type(drawer.getByLabelText('Site name'), 'Night Drama');
    await user.type(drawer.getByLabelText('Domain'), 'night.example.com');
    const template = drawer.getByLabelText('Landing link template');
    // user-event reads "{{" as one "{": this types {drama_id} and Meta's {{campaign.id}} macro.
    await user.type(template, 'https://night.example.com/w?d={{drama_id}&c={{{{campaign.id}}');
    const preview = drawer.getByTestId('link-preview');
    expect(preview.textContent).toBe('https://night.example.com/w?d=10086&c={{campaign.id}}');
    expect(preview.querySelector('[data-unknown="{campaign.id}"]')).toBeTruthy();
    expect(preview.querySelector('[data-placeholder="{drama_id}"]')!.textContent).toBe('10086');
    expect(await drawer.findByText('Unknown placeholder {campaign.id}; use the placeholders listed below')).toBeTruthy();
    await user.click(drawer.getByRole('button', { name: /Save/ }));
    expect(api.count('/sites/create')).toBe(0);

    await user.clear(template);
    await user.type(template, 'https://night.example.com/w?d={{drama_id}&c=');
    await user.click(drawer.getByText('{campaign_id}'));
    await waitFor(() => expect(preview.textContent).toBe('https://night.example.com/w?d=10086&c=120211000000000001'));
    expect(preview.querySelector('[data-unknown]')).toBeNull();
    await user.click(drawer.getByRole('button', { name: /Save/ }));
    await waitFor(() =>
      expect(api.lastBody('/sites/create')).toEqual({
        name: 'Night Drama',
        domain: 'night.example.com',
        platform: 'dj',
        link_template: 'https://night.example.com/w?d={drama_id}&c={campaign_id}',
        pixel_id: null,
        remark: '',
      }),
    );
  });

  it('shows the webhook secret of a new site once, with a copy button and a warning', async () => {
    const { user } = setup();
    await screen.findByText('The Billionaire Returns');
    await user.click(screen.getAllByRole('button', { name: /New site/ })[0]!);
    const drawer = await findDialog('New site');
    await user.type(drawer.getByLabelText('Site name'), 'Night Drama');
    await user.type(drawer.getByLabelText('Domain'), 'Night.Example.com');
    await user.type(drawer.getByLabelText('Landing link template'), 'https://night.example.com/w?d={{drama_id}');
    await user.click(drawer.getByRole('button', { name: /Save/ }));

    const secret = await findDialog('Site "Night Drama" created');
    expect(secret.getByTestId('shown-secret').textContent).toContain(SITE_SECRET);
    expect(secret.getByText(/shown only this once/)).toBeTruthy();
    expect(secret.getByRole('button', { name: 'Copy secret' })).toBeTruthy();
    await user.click(secret.getByRole('button', { name: 'I have saved it' }));
    await waitFor(() => expect(screen.queryByText(SITE_SECRET)).toBeNull());
    // The new site is chosen.
    expect(await screen.findByText('This site has no drama yet — add one or import a spreadsheet.')).toBeTruthy();
  });

  it('validates the domain and link before sending', async () => {
    const { api, user } = setup();
    await screen.findByText('The Billionaire Returns');
    await user.click(screen.getAllByRole('button', { name: /New site/ })[0]!);
    const drawer = await findDialog('New site');
    await user.click(drawer.getByRole('button', { name: /Save/ }));
    expect(await drawer.findByText('Enter a site name')).toBeTruthy();
    await user.type(drawer.getByLabelText('Domain'), 'https://x.com/a');
    expect(await drawer.findByText('Must be a domain such as drama.example.com (no https:// or path)')).toBeTruthy();
    await user.type(drawer.getByLabelText('Landing link template'), 'http://x.com/a');
    expect(await drawer.findByText('Must be a full link starting with https://, without spaces')).toBeTruthy();
    expect(api.count('/sites/create')).toBe(0);
  });

  it('rotates the secret after a warning and shows the new one once', async () => {
    const { api, user } = setup();
    await screen.findByText('The Billionaire Returns');
    await user.click(screen.getByRole('button', { name: /Rotate secret/ }));
    const confirm = await findDialog('Rotate the webhook secret of "Drama Land"?');
    expect(confirm.getByText(/old secret stops working at once/)).toBeTruthy();
    expect(api.count('/sites/rotate_secret')).toBe(0);
    await user.click(confirm.getByRole('button', { name: 'Rotate' }));
    const shown = await findDialog('New secret of site "Drama Land"');
    expect(api.lastBody('/sites/rotate_secret')).toEqual({ id: 5 });
    expect(shown.getByTestId('shown-secret').textContent).toContain(ROTATED_SECRET);
    await user.click(shown.getByRole('button', { name: 'I have saved it' }));
    await waitFor(() => expect(screen.queryByText(ROTATED_SECRET)).toBeNull());
  });

  it('asks before deleting a site, naming what its catalog holds', async () => {
    const { api, user } = setup();
    await screen.findByText('The Billionaire Returns');
    const details = screen.getByTestId('webhook-url').closest('.ant-card') as HTMLElement;
    await user.click(within(details).getByRole('button', { name: /Delete/ }));
    const confirm = await findDialog('Delete the site "Drama Land"?');
    expect(confirm.getByText('Its catalog still holds 2 dramas.')).toBeTruthy();
    await user.click(confirm.getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(api.lastBody('/sites/delete')).toEqual({ id: 5 }));
    await waitFor(() => expect(within(screen.getByRole('listbox', { name: 'Sites' })).queryByText('Drama Land')).toBeNull());
  });

  it('filters the catalog on the server, keeping the choice in the URL', async () => {
    const { api, user, router } = setup();
    await screen.findByText('The Billionaire Returns');
    const filters = within(screen.getByRole('form', { name: 'catalog filters' }));
    await user.click(filters.getByLabelText('Test status'));
    await user.click(await screen.findByTitle('Testing'));
    await waitFor(() => expect(api.lastBody('/dramas/list')).toEqual({ page: 1, page_size: 20, site_id: 5, test_status: 'testing' }));
    await waitFor(() => expect(screen.queryByText('The Billionaire Returns')).toBeNull());
    expect(Object.fromEntries(new URLSearchParams(router.state.location.search))).toEqual({ site: '5', test_status: 'testing' });
  });

  it('creates a drama after checking its fields', async () => {
    const { api, user } = setup();
    await screen.findByText('The Billionaire Returns');
    await user.click(screen.getAllByRole('button', { name: /New drama/ })[0]!);
    const modal = await findDialog('New drama');
    await user.click(modal.getByRole('button', { name: /Save/ }));
    expect(await modal.findByText('Enter the ID in the site')).toBeTruthy();
    expect(modal.getByText('Enter a name')).toBeTruthy();
    await user.type(modal.getByLabelText('Site ID'), 'D2001');
    await user.type(modal.getByLabelText('Title'), 'Snow Queen');
    await user.type(modal.getByLabelText('Language'), 'ja');
    await user.type(modal.getByLabelText('Cover URL'), 'not a link');
    expect(await modal.findByText('Must be a link starting with http:// or https://')).toBeTruthy();
    await user.clear(modal.getByLabelText('Cover URL'));
    await user.type(modal.getByLabelText('Tags'), 'fantasy{Enter}');
    await user.click(modal.getByRole('button', { name: /Save/ }));
    await waitFor(() =>
      expect(api.lastBody('/dramas/create')).toEqual({ site_id: 5, external_id: 'D2001', name: 'Snow Queen', language: 'ja', episode_count: 1, cover_url: null, tags: ['fantasy'], test_status: 'untested' }),
    );
    expect(await screen.findByText('Snow Queen')).toBeTruthy();
  });

  it('imports a catalog file: the check lists row errors, a good file shows what changes, then applies', async () => {
    const { api, user } = setup();
    await screen.findByText('The Billionaire Returns');
    await user.click(screen.getAllByRole('button', { name: /Import/ })[0]!);
    const modal = await findDialog('Import dramas into "Drama Land"');

    await upload(user, 'dramas.csv', 'external_id,name\nD1,bad row');
    await waitFor(() => expect(api.count('/dramas/import')).toBe(1));
    const first = api.lastBody('/dramas/import') as { content_base64: string };
    expect(api.lastBody('/dramas/import')).toEqual({ site_id: 5, filename: 'dramas.csv', content_base64: first.content_base64, dry_run: true });
    expect(atob(first.content_base64)).toBe('external_id,name\nD1,bad row');
    expect(await modal.findByText('2 problems to fix')).toBeTruthy();
    const errors = within(modal.getByTestId('import-errors'));
    expect(within(errors.getByText('3').closest('tr')!).getByText('Must be a whole number from 1 to 10000')).toBeTruthy();
    expect(within(errors.getByText('5').closest('tr')!).getByText('name')).toBeTruthy();
    expect((modal.getByRole('button', { name: 'Import' }) as HTMLButtonElement).disabled).toBe(true);

    await upload(user, 'dramas.csv', 'external_id,name\nD1,good');
    expect(await modal.findByText('Check passed: 2 new, 1 updated')).toBeTruthy();
    expect(api.count('/dramas/import')).toBe(2);
    await user.click(modal.getByRole('button', { name: 'Import' }));
    await waitFor(() => expect(api.count('/dramas/import')).toBe(3));
    expect(api.lastBody('/dramas/import')).not.toHaveProperty('dry_run');
    expect(await screen.findByText('Imported: 2 new, 1 updated')).toBeTruthy();
  });

  it('refuses other file types without sending them', async () => {
    const { api, user } = setup();
    await screen.findByText('The Billionaire Returns');
    await user.click(screen.getAllByRole('button', { name: /Import/ })[0]!);
    const modal = await findDialog('Import dramas into "Drama Land"');
    const input = document.querySelector('.ant-modal input[type=file]') as HTMLInputElement;
    // The picker filters by extension; a dropped file is checked here.
    input.removeAttribute('accept');
    await user.upload(input, new File(['x'], 'dramas.txt', { type: 'text/plain' }));
    expect(await modal.findByText('Only .csv or .xlsx files are supported')).toBeTruthy();
    expect(api.count('/dramas/import')).toBe(0);
  });

  it('asks before deleting a drama and exports the filtered catalog', async () => {
    const { api, user } = setup('/auth/site?site=5&keyword=Moon');
    await screen.findByText('Moonlight Contract');
    await user.click(rowOf('Moonlight Contract').getByRole('button', { name: 'Delete Moonlight Contract' }));
    const confirm = await findDialog('Delete "Moonlight Contract"?');
    await user.click(confirm.getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(api.lastBody('/dramas/delete')).toEqual({ id: 42 }));

    await user.click(screen.getByRole('button', { name: /Export Excel/ }));
    await waitFor(() => expect(api.lastBody('/dramas/export')).toEqual({ site_id: 5, keyword: 'Moon', columns: ['cover', 'name', 'language', 'episode_count', 'tags', 'test_status'] }));
  });
});
