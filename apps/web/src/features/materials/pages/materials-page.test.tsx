import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildAdAccount, buildDrama } from '@/testing/asset-factories';
import { findDialog } from '@/testing/dom';
import { buildSimpleUser } from '@/testing/factories';
import { buildMaterial, buildPush } from '@/testing/material-factories';
import { materialsBackend, type MaterialSeed } from '@/testing/materials-backend';
import { mockApi } from '@/testing/mock-api';
import { manager, renderScreen } from '@/testing/render';
import DramaMaterialsPage from './drama-materials-page';
import MaterialUploadPage from './material-upload-page';

const alice = buildSimpleUser({ id: 31, account: 'alice', name: 'Alice' });
const bob = buildSimpleUser({ id: 32, account: 'bob', name: 'Bob' });
const drama = buildDrama({ id: 7, name: 'Love in Paris' });

const hook = buildMaterial({
  id: 1,
  file_name: 'hook-v1.mp4',
  duration_s: 75,
  width: 720,
  height: 1280,
  drama: { id: 7, name: 'Love in Paris' },
  language: 'en',
  editor: { id: 31, name: 'Alice' },
  tags: ['hook'],
  created_at: '2026-03-02T08:00:00.000Z',
});
const shoe = buildMaterial({ id: 2, file_name: 'shoe.png', kind: 'image', platform: 'ec', mime_type: 'image/png', duration_s: null, width: 1080, height: 1080, product: { id: 9, name: 'Runner' }, size_bytes: 204_800 });
const used = buildMaterial({ id: 3, file_name: 'ep1-cut.mp4', ads_using: 2, editor: { id: 32, name: 'Bob' }, language: 'es', tags: ['hook', 'v2'] });

function setup({ url = '/material/upload', page = <MaterialUploadPage />, seed = {} }: { url?: string; page?: React.ReactElement; seed?: MaterialSeed } = {}) {
  const backend = materialsBackend({
    users: [alice, bob],
    dramas: [drama],
    adAccounts: [buildAdAccount({ id: 11, name: 'US Drama 01', platform_id: 'act_111' }), buildAdAccount({ id: 12, name: 'UK Drama 02', platform_id: 'act_222' })],
    materials: [hook, shoe, used],
    ...seed,
  });
  const api = mockApi(backend.handlers);
  const view = renderScreen(page, { url, user: manager });
  return { ...view, api, backend };
}

const filters = () => within(screen.getByRole('form', { name: 'filters' }));
const card = (name: string) => within(screen.getAllByTestId('material-card').find((c) => c.getAttribute('aria-label') === name)!);
const bar = () => within(screen.getByTestId('selection-bar'));

describe('materials library', { timeout: 60_000 }, () => {
  it('shows the library as cards with duration, drama, editor and pushes, and as a sortable list', async () => {
    const { api, user, router } = setup({ seed: { pushes: [buildPush({ material: { id: 1, name: 'hook-v1.mp4' }, state: 'ready' }), buildPush({ material: { id: 1, name: 'hook-v1.mp4' }, state: 'failed' })] } });
    expect(await screen.findByRole('heading', { name: 'Upload materials' })).toBeTruthy();
    await screen.findByText('hook-v1.mp4');
    const c = card('hook-v1.mp4');
    expect(c.getByText('1:15')).toBeTruthy();
    expect(c.getByText('Love in Paris · EN')).toBeTruthy();
    expect(c.getByText(/Alice · 12\.0 MB · 720×1280/)).toBeTruthy();
    expect(c.getByText('Pushed 1')).toBeTruthy();
    expect(c.getByText('Failed 1')).toBeTruthy();
    expect(card('shoe.png').getByText('Not pushed')).toBeTruthy();
    expect(card('ep1-cut.mp4').getAllByText('Used by 2 ads').length).toBeGreaterThan(0);
    expect(api.lastBody('/materials/list')).toEqual({ page: 1, page_size: 20 });

    await user.click(screen.getByText('List'));
    expect(router.state.location.search).toBe('?view=list');
    const row = within(screen.getByText('hook-v1.mp4').closest('tr')!);
    expect(row.getByText('English (en)')).toBeTruthy();
    await user.click(screen.getAllByText('Size')[0]!);
    await waitFor(() => expect(api.lastBody('/materials/list')).toEqual({ page: 1, page_size: 20, sort_field: 'size_bytes', sort_order: 'ascend' }));
  });

  it('sends the filters, keeps them in the URL and reopens a shared link with them', async () => {
    const { api, user, router, unmount } = setup();
    await screen.findByText('hook-v1.mp4');
    await user.type(filters().getByLabelText('Keyword'), 'cut{Enter}');
    await waitFor(() => expect(api.lastBody('/materials/list')).toEqual({ page: 1, page_size: 20, keyword: 'cut' }));
    await user.click(filters().getByLabelText('Editor'));
    await user.click(await screen.findByTitle('Bob'));
    await user.click(filters().getByLabelText('Pushes'));
    await user.click(await screen.findByTitle('Never pushed'));
    await waitFor(() => expect(api.lastBody('/materials/list')).toEqual({ page: 1, page_size: 20, keyword: 'cut', editor_id: 32, push: 'none' }));
    expect(Object.fromEntries(new URLSearchParams(router.state.location.search))).toEqual({ keyword: 'cut', editor_id: '32', push: 'none' });
    await waitFor(() => expect(screen.queryByText('hook-v1.mp4')).toBeNull());
    expect(screen.getByText('ep1-cut.mp4')).toBeTruthy();
    unmount();

    const again = setup({ url: '/material/upload?tags=hook,v2&language=es&date_from=2026-03-01&date_to=2026-03-31&platform=dj&sort_field=file_name&sort_order=ascend' });
    await screen.findByText('ep1-cut.mp4');
    expect(again.api.bodies('/materials/list')[0]).toEqual({
      page: 1,
      page_size: 20,
      tags: ['hook', 'v2'],
      language: 'es',
      date_from: '2026-03-01',
      date_to: '2026-03-31',
      platform: 'dj',
      sort_field: 'file_name',
      sort_order: 'ascend',
    });
    expect(screen.queryByText('hook-v1.mp4')).toBeNull();
    expect(again.api.lastBody('/materials/facets')).toEqual({ platform: 'dj' });
  });

  it('opens 短剧素材 on drama videos only, without those filters', async () => {
    const { api } = setup({ url: '/advertising/video', page: <DramaMaterialsPage /> });
    await screen.findByText('hook-v1.mp4');
    expect(screen.getByRole('heading', { name: 'Drama materials' })).toBeTruthy();
    expect(api.lastBody('/materials/list')).toEqual({ page: 1, page_size: 20, platform: 'dj', kind: 'video' });
    expect(screen.queryByText('shoe.png')).toBeNull();
    expect(filters().queryByLabelText('Business')).toBeNull();
    expect(filters().queryByLabelText('Type')).toBeNull();
    expect(api.lastBody('/materials/facets')).toEqual({ platform: 'dj' });
    // The upload panel stays closed until asked for, and then uploads drama materials only.
    expect(screen.queryByTestId('upload-panel')).toBeNull();
  });

  it('edits the details of many materials at once, sending only what was ticked', async () => {
    const { api, user } = setup();
    await screen.findByText('hook-v1.mp4');
    await user.click(card('hook-v1.mp4').getByRole('checkbox'));
    await user.click(card('ep1-cut.mp4').getByRole('checkbox'));
    await user.click(bar().getByRole('button', { name: /Edit details/ }));
    const modal = await findDialog('Edit material details');
    await user.click(modal.getByRole('button', { name: /Save/ }));
    expect(await modal.findByText('Tick at least one detail to change')).toBeTruthy();
    expect(api.count('/materials/batch_edit')).toBe(0);

    // Choosing a value ticks its box; a ticked empty field clears.
    await user.click(modal.getByLabelText('Change: Editor'));
    const tags = modal.getByText('Type and press Enter').closest('.ant-select')!.querySelector('input')!;
    await user.type(tags, 'final');
    await user.click(await screen.findByTitle('final'));
    // The mode shows once the tag is in (a render later on a loaded runner).
    await user.click(await modal.findByText('Replace'));
    await user.type(modal.getByPlaceholderText('Optional'), 'checked by QA');
    await user.click(modal.getByRole('button', { name: /Save/ }));
    await waitFor(() =>
      expect(api.lastBody('/materials/batch_edit')).toEqual({ ids: [1, 3], editor_id: null, tags: ['final'], tags_mode: 'replace', remark: 'checked by QA' }),
    );
    expect(await screen.findByText('2 materials updated')).toBeTruthy();
  });

  it('deletes only materials no ad uses, and shows the server refusal when an ad started using one meanwhile', async () => {
    const { api, user } = setup({ seed: { adsUsingOnServer: { 1: 1 } } });
    await screen.findByText('hook-v1.mp4');
    await user.click(card('hook-v1.mp4').getByRole('checkbox'));
    await user.click(card('ep1-cut.mp4').getByRole('checkbox'));
    await user.click(bar().getByRole('button', { name: /Delete/ }));
    const confirm = await findDialog('Delete 1 material?');
    expect(confirm.getByText(/These materials are used by ads and cannot be deleted/)).toBeTruthy();
    expect(confirm.getByText('ep1-cut.mp4 (Used by 2 ads)')).toBeTruthy();
    await user.click(confirm.getByRole('button', { name: /Delete/ }));
    await waitFor(() => expect(api.lastBody('/materials/delete')).toEqual({ ids: [1] }));
    expect((await confirm.findByTestId('confirm-error')).textContent).toContain('Materials used by ads cannot be deleted: hook-v1.mp4 (1 ads)');
    expect(screen.getByText('hook-v1.mp4')).toBeTruthy();
  });

  it('pushes materials to ad accounts as a task and says what was skipped', async () => {
    const { api, user } = setup({ seed: { pushes: [buildPush({ material: { id: 1, name: 'hook-v1.mp4' }, ad_account: { id: 11, name: 'US Drama 01', platform_id: 'act_111' }, state: 'ready' })] } });
    await screen.findByText('hook-v1.mp4');
    await user.click(card('hook-v1.mp4').getByRole('checkbox'));
    await user.click(card('ep1-cut.mp4').getByRole('checkbox'));
    await user.click(bar().getByRole('button', { name: /Push to accounts/ }));
    const modal = await findDialog('Push to ad accounts');
    await user.click(modal.getByRole('button', { name: /Push$/ }));
    expect(await modal.findByText('Choose at least one ad account')).toBeTruthy();
    await user.click(modal.getByLabelText('Ad accounts'));
    await user.click(await screen.findByTitle('US Drama 01 (act_111)'));
    await user.click(await screen.findByTitle('UK Drama 02 (act_222)'));
    expect(await modal.findByText('4 material × account pairs')).toBeTruthy();
    await user.click(modal.getByRole('button', { name: /Push$/ }));
    await waitFor(() => expect(api.lastBody('/materials/push')).toEqual({ material_ids: [1, 3], ad_account_ids: [11, 12] }));
    expect(await screen.findByText('Pushes started: 3; skipped as already pushed: 1')).toBeTruthy();
    expect(await screen.findByTestId(/^task-\d+$/)).toBeTruthy();
  });

  it('offers the accounts of the material\'s platform first: drama accounts for a drama clip, shop accounts for a product image', async () => {
    const adAccounts = [
      buildAdAccount({ id: 21, name: 'Alpha Shop', platform_id: 'act_21', platform: 'ec' }),
      buildAdAccount({ id: 22, name: 'Beta Drama', platform_id: 'act_22', platform: 'dj' }),
      buildAdAccount({ id: 23, name: 'Gamma Shop', platform_id: 'act_23', platform: 'ec' }),
      buildAdAccount({ id: 24, name: 'Zeta Drama', platform_id: 'act_24', platform: 'dj' }),
    ];
    const { user } = setup({ seed: { adAccounts } });
    const offered = async () => {
      await waitFor(() => expect(document.querySelectorAll('.ant-select-item-option')).toHaveLength(4));
      return [...document.querySelectorAll('.ant-select-item-option')].map((o) => o.getAttribute('title'));
    };
    await screen.findByText('hook-v1.mp4');
    await user.click(card('hook-v1.mp4').getByRole('checkbox'));
    await user.click(bar().getByRole('button', { name: /Push to accounts/ }));
    let modal = await findDialog('Push to ad accounts');
    await user.click(modal.getByLabelText('Ad accounts'));
    await waitFor(async () => expect(await offered()).toEqual(['Beta Drama (act_22)', 'Zeta Drama (act_24)', 'Alpha Shop (act_21)', 'Gamma Shop (act_23)']));
    await user.keyboard('{Escape}');
    await user.click(modal.getByRole('button', { name: /Cancel/ }));

    await user.click(card('hook-v1.mp4').getByRole('checkbox'));
    await user.click(card('shoe.png').getByRole('checkbox'));
    await user.click(bar().getByRole('button', { name: /Push to accounts/ }));
    modal = await findDialog('Push to ad accounts');
    await user.click(modal.getByLabelText('Ad accounts'));
    await waitFor(async () => expect(await offered()).toEqual(['Alpha Shop (act_21)', 'Gamma Shop (act_23)', 'Beta Drama (act_22)', 'Zeta Drama (act_24)']));
  });

  it('opens a material: player, facts, details saved as a diff, pushes with the platform message and retry', async () => {
    const failedPush = buildPush({
      id: 501,
      material: { id: 1, name: 'hook-v1.mp4' },
      ad_account: { id: 12, name: 'UK Drama 02', platform_id: 'act_222' },
      state: 'failed',
      error: '(#100) Video file too short for this placement',
      attempts: 2,
    });
    const { api, user, router } = setup({ url: '/material/upload?material=1', seed: { pushes: [failedPush, buildPush({ id: 502, material: { id: 1, name: 'hook-v1.mp4' }, state: 'ready', platform_ref: '1203948' })] } });
    const drawer = await findDialog('hook-v1.mp4');
    await waitFor(() => expect((drawer.getByTestId('material-player') as HTMLVideoElement).getAttribute('src')).toBe(hook.file_url));
    expect(drawer.getByText(hook.md5)).toBeTruthy();
    expect(drawer.getByText('720×1280')).toBeTruthy();
    expect(api.lastBody('/materials/get')).toEqual({ id: 1 });

    const name = drawer.getByLabelText('File name');
    await user.clear(name);
    await user.type(name, 'hook-final.mp4');
    await user.type(drawer.getByLabelText('Remark'), 'best CTR');
    await user.click(drawer.getByRole('button', { name: /Save/ }));
    await waitFor(() => expect(api.lastBody('/materials/edit')).toEqual({ id: 1, file_name: 'hook-final.mp4', remark: 'best CTR' }));

    await user.click(drawer.getByRole('tab', { name: /Pushes/ }));
    expect(await drawer.findByText('(#100) Video file too short for this placement')).toBeTruthy();
    expect(drawer.getByText(/1203948/)).toBeTruthy();
    await user.click(drawer.getByRole('button', { name: 'Retry UK Drama 02' }));
    await waitFor(() => expect(api.lastBody('/materials/retry_push')).toEqual({ push_ids: [501] }));
    expect(await screen.findByText('Failed pushes are being retried')).toBeTruthy();

    await user.click(drawer.getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
  });

  it('retries every failed push of the selected materials', async () => {
    const { api, user } = setup({ seed: { pushes: [buildPush({ id: 601, material: { id: 3, name: 'ep1-cut.mp4' }, state: 'failed', error: 'Token expired' })] } });
    await screen.findByText('ep1-cut.mp4');
    await user.click(card('ep1-cut.mp4').getByRole('checkbox'));
    await user.click(card('hook-v1.mp4').getByRole('checkbox'));
    await user.click(bar().getByRole('button', { name: /Retry failed pushes/ }));
    await waitFor(() => expect(api.bodies('/materials/retry_push')).toEqual([{ material_id: 3 }]));
  });

  it('says how to start on an empty library', async () => {
    setup({ seed: { materials: [] } });
    expect(await screen.findByText('No materials yet: drop videos or images above to upload')).toBeTruthy();
  });
});
