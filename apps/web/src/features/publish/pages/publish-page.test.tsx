import type { PublishIssue, PublishTemplate } from '@ads/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { findDialog } from '@/testing/dom';
import { mockApi } from '@/testing/mock-api';
import { buildCatalogItem, buildPublishAccount, buildPublishMaterial, publishBackend, type PublishSeed } from '@/testing/publish-backend';
import { renderScreen } from '@/testing/render';
import { defaultValues, templateSettings, toDraft, type WizardValues } from '../components/draft';
import PublishPage from './publish-page';

const drama = { id: 501, name: 'Love in Paris' };
const seed: PublishSeed = {
  accounts: [
    buildPublishAccount({ id: 11, name: 'US Drama 01' }),
    buildPublishAccount({ id: 12, name: 'JP Drama', currency: 'JPY', timezone_name: 'Asia/Tokyo', balance: 500000 }),
    buildPublishAccount({ id: 13, name: 'EU Drama', currency: 'EUR', timezone_name: 'Europe/Berlin' }),
    buildPublishAccount({ id: 14, name: 'Closed Drama', blocked: 'account_disabled', account_status: 2 }),
  ],
  catalog: [buildCatalogItem({ ...drama })],
  materials: [
    buildPublishMaterial({ id: 601, drama }),
    buildPublishMaterial({ id: 602, drama }),
    buildPublishMaterial({ id: 603, kind: 'image', file_name: 'poster-603.jpg', duration_s: null, drama }),
    buildPublishMaterial({ id: 604 }),
  ],
  optimizer: 'manager',
};

/** The wizard as a tab left it at `step` (0-based): a drama, 2 videos × 2 texts, 3 accounts, a daily budget of 50. */
function leaveWizardAt(step: number, patch?: (v: WizardValues) => void) {
  const v = defaultValues('dj');
  v.what.drama_id = drama.id;
  v.creatives.videos = [{ material_id: 601, cover_material_id: null }, { material_id: 602, cover_material_id: null }];
  v.creatives.texts.primary_texts = ['Watch now', 'Free episodes'];
  v.where.accounts = [11, 12, 13].map((id) => ({ ad_account_id: id, page_id: id * 10 + 1, pixel_id: id * 10 + 2, link: 'https://reel.example.com/play/D501/1', url_tags: 'c={{campaign.id}}', budget: null }));
  v.campaign.budget = 50;
  patch?.(v);
  sessionStorage.setItem('publish-wizard:dj', JSON.stringify({ values: v, step, templateId: null }));
}

function setup(extra: Partial<PublishSeed> = {}, url = '/advertising/publish') {
  const backend = publishBackend({ ...seed, ...extra });
  const api = mockApi(backend.handlers);
  const view = renderScreen(<PublishPage />, { url });
  return { ...view, api, backend };
}

const stepTitle = () => screen.getByTestId('step-title').textContent;
const next = () => screen.getByRole('button', { name: /Next/ });

afterEach(() => sessionStorage.clear());

describe('publish wizard', { timeout: 60_000 }, () => {
  it('checks each step before going on: a drama first, then materials and texts', async () => {
    const { user } = setup();
    expect(screen.getByRole('heading', { name: 'Drama publish' })).toBeTruthy();
    await screen.findByRole('radio', { name: 'Love in Paris' });
    await user.click(next());
    expect(await screen.findByText('Pick a drama')).toBeTruthy();
    expect(screen.getByTestId('step-error')).toBeTruthy();
    expect(stepTitle()).toBe('Step 1: What');

    await user.click(screen.getByRole('radio', { name: 'Love in Paris' }));
    await user.click(next());
    await waitFor(() => expect(stepTitle()).toBe('Step 2: Creatives'));
    await user.click(next());
    expect(await screen.findByText('Pick at least one video or image')).toBeTruthy();
    expect(screen.getByText('Enter the text, or remove this item')).toBeTruthy();
    expect(stepTitle()).toBe('Step 2: Creatives');
  });

  it('counts the ads live for each combination mode', async () => {
    leaveWizardAt(1, (v) => {
      v.creatives.videos = [];
      v.creatives.texts.primary_texts = [''];
    });
    const { user, api } = setup();
    await waitFor(() => expect(stepTitle()).toBe('Step 2: Creatives'));
    await user.click(screen.getByRole('button', { name: /Pick videos/ }));
    const picker = await findDialog('Pick videos from the library');
    // Preset to the drama: its two videos, not the other drama's.
    await picker.findByRole('checkbox', { name: 'clip-601.mp4' });
    expect(picker.queryByRole('checkbox', { name: 'clip-604.mp4' })).toBeNull();
    expect(api.lastBody('/publish/materials')).toMatchObject({ platform: 'dj', kind: 'video', drama_id: 501 });
    await user.click(picker.getByRole('checkbox', { name: 'clip-601.mp4' }));
    await user.click(picker.getByRole('checkbox', { name: 'clip-602.mp4' }));
    await user.click(picker.getByRole('button', { name: 'OK (2)' }));
    await user.type(screen.getByRole('textbox', { name: 'Primary text 1' }), 'Watch now');
    await user.click(screen.getByRole('button', { name: /Add primary text/ }));
    await user.type(screen.getByRole('textbox', { name: 'Primary text 2' }), 'Free episodes');

    const count = () => within(screen.getByTestId('ad-count'));
    await waitFor(() => expect(count().getByText('4')).toBeTruthy());
    expect(count().getByText('2 materials × 2 primary texts')).toBeTruthy();
    await user.click(screen.getByRole('radio', { name: /^One ad per material/ }));
    await waitFor(() => expect(count().getByText('2')).toBeTruthy());
    await user.click(screen.getByRole('radio', { name: /^Dynamic creative/ }));
    await waitFor(() => expect(count().getByText('1')).toBeTruthy());

    // Step 3 lists only accounts that can be published to: the closed one cannot be ticked.
    await user.click(next());
    await waitFor(() => expect(stepTitle()).toBe('Step 3: Ad accounts'));
    const closed = await screen.findByRole('checkbox', { name: 'Closed Drama' });
    expect((closed as HTMLInputElement).disabled).toBe(true);
    expect(screen.getByText('Account not active')).toBeTruthy();
  });

  it('previews every object with totals; an error blocks submit and leads back to its step', async () => {
    const error: PublishIssue = { level: 'error', source: 'rules', code: 'PUB_BUDGET_TOO_LOW', message: 'The daily budget of JP Drama (JPY 50) is below the minimum JPY 150', field: 'campaign.budget', ad_account_id: 12, key: null };
    leaveWizardAt(3);
    const { user, api } = setup({ issues: [error] });
    await waitFor(() => expect(stepTitle()).toBe('Step 4: Structure & settings'));
    // The live count of step 4: 1 campaign, 1 ad set, 4 ads per account; 3 accounts.
    expect(within(screen.getByTestId('structure-counts')).getByText('Campaigns: 3 · ad sets: 3 · ads: 12')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: /Preview & check/ }));
    await waitFor(() => expect(stepTitle()).toBe('Step 5: Preview & checks'));

    const totals = within(await screen.findByTestId('preview-totals'));
    expect(totals.getByText('12')).toBeTruthy();
    expect(totals.getByText('USD 50.00')).toBeTruthy();
    expect(totals.getByText('JPY 50')).toBeTruthy();
    expect(totals.getByText('EUR 50.00')).toBeTruthy();
    const body = api.lastBody('/publish/preview') as { draft: { where: { accounts: unknown[] }; creatives: { texts: { primary_texts: string[] } } }; validate: boolean };
    expect(body.validate).toBe(true);
    expect(body.draft.where.accounts).toHaveLength(3);
    expect(body.draft.creatives.texts.primary_texts).toEqual(['Watch now', 'Free episodes']);
    // Names from the templates: campaign {drama}-{optimizer}-{date}-{seq}, ads {drama}-{material}-{editor}-{seq}.
    expect(screen.getAllByText('Love in Paris-manager-20261124-1')).toHaveLength(3);
    expect(screen.getAllByText('Love in Paris-clip-601-Eve-1')).toHaveLength(3);

    expect(screen.getByTestId('preview-verdict').textContent).toContain('Errors to fix before submitting: 1.');
    expect(within(screen.getByTestId('preview-issues')).getByText(error.message)).toBeTruthy();
    expect((next() as HTMLButtonElement).disabled).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Fix in "Structure & settings"' }));
    await waitFor(() => expect(stepTitle()).toBe('Step 4: Structure & settings'));
  });

  it('saves steps 3–4 as a template and loads another one in their place', async () => {
    const eu: PublishTemplate = {
      id: 77,
      name: 'EU weekend',
      platform: 'dj',
      visibility: 'department',
      owner: { id: 3, name: 'Carol' },
      department: { id: 1, name: 'Ops' },
      editable: false,
      settings: templateSettings('dj', (() => {
        const v = defaultValues('dj');
        v.where.accounts = [{ ad_account_id: 13, page_id: 131, pixel_id: 132, link: 'https://reel.example.com/old', url_tags: '', budget: 80 }];
        v.adset.countries = ['DE', 'FR'];
        v.campaign.budget = 80;
        return v;
      })()),
      created_at: '2026-11-01T00:00:00.000Z',
      updated_at: '2026-11-01T00:00:00.000Z',
    };
    leaveWizardAt(3);
    const { user, api } = setup({ templates: [eu] });
    await waitFor(() => expect(stepTitle()).toBe('Step 4: Structure & settings'));

    await user.click(screen.getByRole('button', { name: /Save as template/ }));
    const dialog = await findDialog('Save as template');
    await user.type(dialog.getByRole('textbox', { name: 'Template name' }), 'US night');
    await user.click(dialog.getByRole('radio', { name: 'My department' }));
    await user.click(dialog.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.count('/publish-templates/save')).toBe(1));
    const saved = api.lastBody('/publish-templates/save') as { name: string; visibility: string; settings: { where: { accounts: { ad_account_id: number }[] }; campaign: { budget: number } } };
    expect(saved).toMatchObject({ name: 'US night', visibility: 'department', platform: 'dj' });
    expect(saved.settings.where.accounts.map((a) => a.ad_account_id)).toEqual([11, 12, 13]);
    expect(saved.settings.campaign.budget).toBe(50);
    expect(await screen.findByText('Template "US night" saved')).toBeTruthy();

    await user.click(screen.getByRole('combobox', { name: 'Load template' }));
    await user.click(await screen.findByText('EU weekend · Carol'));
    expect(await screen.findByText('Template "EU weekend" loaded: steps 3–4 replaced')).toBeTruthy();
    // The EU countries ask for the DSA beneficiary and payer.
    expect(await screen.findByText(/Targeting EU countries \(DE, FR\)/)).toBeTruthy();
    expect(screen.getByLabelText('Beneficiary')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: /Back/ }));
    await waitFor(() => expect(stepTitle()).toBe('Step 3: Ad accounts'));
    // Only the template's account, its own budget kept, the link made for the current drama.
    expect(screen.getByTestId('accounts-selected').textContent).toBe('Selected: 1 / 50');
    expect((screen.getByRole('spinbutton', { name: 'Own budget of EU Drama' }) as HTMLInputElement).value).toBe('80.00');
    await waitFor(() => expect((screen.getByRole('textbox', { name: 'Landing link of EU Drama' }) as HTMLInputElement).value).toBe('https://reel.example.com/play/D501/1'));
  });

  it('submits after a confirmation and shows live progress; retries the failed item', async () => {
    const warning: PublishIssue = { level: 'warning', source: 'platform', code: 'PUB_LEARNING', message: 'Ad sets with a small budget may not leave the learning phase', field: null, ad_account_id: null, key: null };
    leaveWizardAt(3, (v) => {
      v.launch = { mode: 'at', local: '2030-01-01T20:00', zone: 'America/New_York' };
    });
    const { user, api } = setup({ issues: [warning], failing: { 'a12.c1.s1.ad2': 'The video is still processing on the platform' } });
    await waitFor(() => expect(stepTitle()).toBe('Step 4: Structure & settings'));
    await user.click(screen.getByRole('button', { name: /Preview & check/ }));
    expect((await screen.findByTestId('preview-verdict')).textContent).toContain('Checks passed with warnings (1)');
    await user.click(next());
    await waitFor(() => expect(stepTitle()).toBe('Step 6: Submit'));
    expect(screen.getByRole('radio', { name: /^Switch on at a time/ })).toHaveProperty('checked', true);

    await user.click(screen.getByRole('button', { name: /Submit scheme/ }));
    const confirm = await findDialog('Submit this scheme?');
    expect(confirm.getByText('Creates on 3 ad accounts: campaigns 3, ad sets 3, ads 12.')).toBeTruthy();
    expect(confirm.getByText(/switched on at 2030-01-01 20:00 \(America\/New_York/)).toBeTruthy();
    expect(api.count('/publish/submit')).toBe(0);
    await user.click(confirm.getByRole('button', { name: 'Submit' }));

    await waitFor(() => expect(api.count('/publish/submit')).toBe(1));
    // 20:00 in New York on 1 January is 01:00 UTC the next day.
    expect(api.lastBody('/publish/submit')).toMatchObject({ draft: { launch: { mode: 'at', at: '2030-01-02T01:00:00.000Z' } } });
    expect(await screen.findByTestId('scheme-name')).toBeTruthy();
    // The run moves on every poll until one ad has failed with the platform's reason.
    await waitFor(() => expect(screen.getByTestId('scheme-status').textContent).toBe('Partly failed'), { timeout: 10_000 });
    expect(await screen.findByText('The video is still processing on the platform')).toBeTruthy();
    expect(screen.getByText('Created 17 of 18 items')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: /Retry failed \(1\)/ }));
    const retry = await findDialog('Retry the failed items (1)?');
    await user.click(retry.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(api.count('/publish-schemes/retry_failed')).toBe(1));
    await waitFor(() => expect(screen.getByTestId('scheme-status').textContent).toBe('Done'), { timeout: 10_000 });
    expect(screen.getByText('Created 18 of 18 items')).toBeTruthy();
    // The wizard forgot the submitted draft.
    expect(sessionStorage.getItem('publish-wizard:dj')).toBeNull();
  });
});

describe('schemes', { timeout: 60_000 }, () => {
  async function submitted(extra: Partial<PublishSeed> = {}) {
    const backend = publishBackend({ ...seed, ...extra });
    const v = defaultValues('dj');
    v.what.drama_id = drama.id;
    v.creatives.videos = [{ material_id: 601, cover_material_id: null }];
    v.creatives.texts.primary_texts = ['Watch now'];
    v.where.accounts = [{ ad_account_id: 11, page_id: 111, pixel_id: 112, link: 'https://reel.example.com/play/D501/1', url_tags: '', budget: null }];
    v.campaign.budget = 30;
    v.adset.countries = ['GB'];
    await backend.handlers['/publish/submit']!({ draft: toDraft('dj', v), template_id: null } as never);
    return backend;
  }

  it('lists the schemes and starts a new one from a past scheme: its draft fills the wizard', async () => {
    const backend = await submitted();
    const api = mockApi(backend.handlers);
    const { user, router } = renderScreen(<PublishPage />, { url: '/advertising/publish?tab=schemes' });
    const name = await screen.findByRole('button', { name: 'Love in Paris 2026-11-24' });
    expect(api.lastBody('/publish-schemes/list')).toMatchObject({ platform: 'dj', page: 1 });
    expect(within(name.closest('tr')!).getByText('Creating')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'New scheme from "Love in Paris 2026-11-24"' }));
    await waitFor(() => expect(api.count('/publish-schemes/draft')).toBe(1));
    await waitFor(() => expect(stepTitle()).toBe('Step 1: What'));
    // The link forgets the source once loaded, so a refresh keeps the edits.
    await waitFor(() => expect(router.state.location.search).not.toContain('from='));
    expect((await screen.findByRole('radio', { name: 'Love in Paris' })).closest('tr')?.className).toContain('selected');
    await user.click(next());
    await waitFor(() => expect(stepTitle()).toBe('Step 2: Creatives'));
    expect(await screen.findByText('clip-601.mp4')).toBeTruthy();
    expect((screen.getByRole('textbox', { name: 'Primary text 1' }) as HTMLTextAreaElement).value).toBe('Watch now');
  });

  it('cancels a running scheme after a confirmation', async () => {
    const backend = await submitted();
    const id = backend.db.schemes[0]!.scheme.id;
    const api = mockApi(backend.handlers);
    const { user } = renderScreen(<PublishPage />, { url: `/advertising/publish?scheme=${id}` });
    await screen.findByTestId('scheme-name');
    await user.click(screen.getByRole('button', { name: /Cancel scheme/ }));
    const confirm = await findDialog('Cancel scheme "Love in Paris 2026-11-24"?');
    expect(api.count('/publish-schemes/cancel')).toBe(0);
    await user.click(confirm.getByRole('button', { name: 'Cancel scheme' }));
    await waitFor(() => expect(api.count('/publish-schemes/cancel')).toBe(1));
    await waitFor(() => expect(screen.getByTestId('scheme-status').textContent).toBe('Cancelled'), { timeout: 10_000 });
    expect(api.lastBody('/publish-schemes/cancel')).toEqual({ id });
    // Nothing moves any more: no second cancel, no retry.
    expect((screen.getByRole('button', { name: /Cancel scheme/ }) as HTMLButtonElement).disabled).toBe(true);
  });
  it('offers the posts made under 帖子管理 on the chosen page as existing-post creatives', async () => {
    leaveWizardAt(1, (v) => {
      v.creatives.source = 'posts';
      v.creatives.posts = [{ page_id: 111, post_id: '' }];
    });
    const backend = publishBackend(seed);
    const api = mockApi({
      ...backend.handlers,
      '/page-posts/list': (b) => ({
        list:
          b.page_id === 111
            ? [{ id: 1, batch_id: 'b', page: { id: 111, name: 'Page of US Drama 01', platform_id: '1011' }, kind: 'video', material: { id: 601, name: 'clip-601.mp4' }, message: 'Episode 1 is out', link: null, call_to_action: null, published: false, scheduled_at: null, status: 'created', platform_post_id: '1011_900', error: null, created_by: { id: 1, name: 'manager' }, created_at: '2026-11-01T08:00:00.000Z', posted_at: null }]
            : [],
        total: b.page_id === 111 ? 1 : 0,
      }),
    });
    const { user } = renderScreen(<PublishPage />, { url: '/advertising/publish' });
    const field = await screen.findByRole('combobox', { name: 'ID of post 1' });
    await waitFor(() => expect(api.lastBody('/page-posts/list')).toMatchObject({ page_id: 111, status: 'created' }));
    await user.click(field);
    await user.click(await screen.findByText(/1011_900 · clip-601\.mp4/));
    await waitFor(() => expect((field as HTMLInputElement).value).toBe('1011_900'));
  });

  it('browses every post the chosen page has on the platform, page by page, and takes the one picked', async () => {
    leaveWizardAt(1, (v) => {
      v.creatives.source = 'posts';
      v.creatives.posts = [{ page_id: 111, post_id: '' }];
    });
    const backend = publishBackend(seed);
    const platformPost = (id: string, message: string) => ({ id, message, created_time: '2026-11-01T08:00:00.000Z', is_published: true, media_type: 'link' as const, picture: null, link: 'https://x.example', permalink: null, scheduled_publish_time: null, local_id: null });
    const api = mockApi({
      ...backend.handlers,
      '/page-posts/list': () => ({ list: [], total: 0 }),
      '/page-posts/platform': (b) => (b.after === 'c1' ? { list: [platformPost('1011_2', 'Older post')], after: null } : { list: [platformPost('1011_3', 'Newest post')], after: 'c1' }),
    });
    const { user } = renderScreen(<PublishPage />, { url: '/advertising/publish' });
    await user.click(await screen.findByRole('button', { name: 'Browse the page’s posts for post 1' }));
    const dialog = await findDialog('The page’s posts on the platform');
    expect(await dialog.findByText('Newest post')).toBeTruthy();
    await user.click(dialog.getByRole('button', { name: 'Next' }));
    expect(await dialog.findByText('Older post')).toBeTruthy();
    expect(api.lastBody('/page-posts/platform')).toEqual({ page_id: 111, limit: 10, after: 'c1' });
    await user.click(dialog.getByRole('button', { name: 'Use post 1011_2' }));
    await waitFor(() => expect((screen.getByRole('combobox', { name: 'ID of post 1' }) as HTMLInputElement).value).toBe('1011_2'));
  });
});
