import { publishDraftSchema, publishTemplateSettingsSchema } from '@ads/contracts';
import { describe, expect, it } from 'vitest';
import { applyTemplate, buildName, defaultValues, fromDraft, instantToWall, templateSettings, toDraft, wallToInstant } from './draft';

function filled() {
  const v = defaultValues('dj');
  v.what.drama_id = 5;
  v.creatives.videos = [{ material_id: 1, cover_material_id: null }];
  v.creatives.texts = { primary_texts: ['A', '  ', 'B '], headlines: [''], descriptions: [], language: '' };
  v.where.accounts = [{ ad_account_id: 3, page_id: 31, pixel_id: 32, link: ' https://x.example.com/p ', url_tags: '', budget: null }];
  v.campaign.budget = 20;
  return v;
}

describe('wizard draft', () => {
  it('turns wall times in a zone into instants and back, across daylight saving', () => {
    expect(wallToInstant('2030-01-01T20:00', 'America/New_York')).toBe('2030-01-02T01:00:00.000Z');
    expect(wallToInstant('2030-07-01T20:00', 'America/New_York')).toBe('2030-07-02T00:00:00.000Z');
    expect(wallToInstant('2030-03-10T09:30', 'Asia/Tokyo')).toBe('2030-03-10T00:30:00.000Z');
    expect(instantToWall('2030-07-02T00:00:00.000Z', 'America/New_York')).toBe('2030-07-01T20:00');
    expect(wallToInstant('not a time', 'UTC')).toBeNull();
  });

  it('sends a draft the contract accepts: empty texts dropped, fields that do not apply left out', () => {
    const v = filled();
    v.campaign.bid_amount = 3; // lowest cost: no bid
    v.adset.countries = ['US'];
    v.adset.dsa_beneficiary = 'Acme'; // no EU country: not sent
    v.launch = { mode: 'at', local: '2030-01-01T08:00', zone: 'Asia/Tokyo' };
    const d = toDraft('dj', v);
    expect(publishDraftSchema.safeParse(d).success).toBe(true);
    expect(d.creatives.texts).toEqual({ primary_texts: ['A', 'B'], headlines: [], descriptions: [], language: null });
    expect(d.campaign.bid_amount).toBeNull();
    expect(d.adset.dsa_beneficiary).toBeNull();
    expect(d.where.accounts[0]!.link).toBe('https://x.example.com/p');
    expect(d.launch).toEqual({ mode: 'at', at: '2029-12-31T23:00:00.000Z' });
    expect(d.what).toEqual({ drama_id: 5, episode: 1 });
  });

  it('keeps a bid for capped strategies and EU fields when the EU is targeted', () => {
    const v = filled();
    v.campaign.bid_strategy = 'COST_CAP';
    v.campaign.bid_amount = 4;
    v.adset.countries = ['DE'];
    v.adset.dsa_beneficiary = 'Acme';
    v.adset.dsa_payor = 'Acme Ltd';
    v.adset.start_local = '2030-05-01T10:00';
    const d = toDraft('dj', v);
    expect(d.campaign.bid_amount).toBe(4);
    expect(d.adset).toMatchObject({ dsa_beneficiary: 'Acme', dsa_payor: 'Acme Ltd', start_time_zone: 'Europe/Berlin' });
  });

  it('round-trips a past draft and a template through the form', () => {
    const v = filled();
    v.launch = { mode: 'at', local: '2030-01-01T20:00', zone: 'America/New_York' };
    const d = publishDraftSchema.parse(toDraft('dj', v));
    const back = fromDraft(d);
    expect(back.launch).toEqual({ mode: 'at', local: '2030-01-01T20:00', zone: 'America/New_York' });
    expect(back.creatives.texts.primary_texts).toEqual(['A', 'B']);

    const settings = publishTemplateSettingsSchema.parse(templateSettings('dj', v));
    const other = defaultValues('dj');
    other.what.drama_id = 9;
    const applied = applyTemplate(other, settings);
    expect(applied.what.drama_id).toBe(9);
    expect(applied.where.accounts.map((a) => a.ad_account_id)).toEqual([3]);
    expect(applied.campaign.budget).toBe(20);
  });

  it('builds names like the server: separators inside values become spaces', () => {
    expect(buildName('{drama}-{country}-{seq}', { drama: 'Love-Story', country: 'US', seq: '2' })).toBe('Love Story-US-2');
    expect(buildName('{drama}_{foo}', { drama: 'X' })).toBe('X_{foo}');
  });
});
