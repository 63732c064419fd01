import {
  ATTRIBUTIONS,
  AUDIENCE_NETWORK_POSITIONS,
  BID_STRATEGIES,
  CALLS_TO_ACTION,
  CONVERSION_EVENTS,
  FACEBOOK_POSITIONS,
  GOALS_BY_OBJECTIVE,
  INSTAGRAM_POSITIONS,
  MESSENGER_POSITIONS,
  PUBLISH_LIMITS,
  PUBLISH_OBJECTIVES,
  PUBLISHER_PLATFORMS,
  structureCounts,
  type PublishObjective,
} from '@ads/contracts';
import { Alert, Button, Card, Checkbox, DatePicker, Descriptions, Flex, Form, Input, InputNumber, Radio, Select, Switch, Table, Typography } from 'antd';
import dayjs from 'dayjs';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '@/stores/session-store';
import { currencyDecimals, formatCount, formatMoney } from '@/lib/format';
import { compactDate, countable, euTargeted, isCapped, marketZone, needsPixel, stem, unknownTokens, wallToInstant, type WizardValues } from './draft';
import { NamingField, TOKENS_DJ, TOKENS_EC } from './naming-field';
import { countryOptions, timeZoneOptions } from './options';
import { useWizard } from './wizard-context';

const LOCAL_FORMAT = 'YYYY-MM-DDTHH:mm';
/** A wall-time field: the form holds `YYYY-MM-DDTHH:mm`, the picker a dayjs. */
const wallTimeProps = {
  getValueProps: (v: string | null | undefined) => ({ value: v ? dayjs(v, LOCAL_FORMAT) : null }),
  normalize: (d: dayjs.Dayjs | null) => (d ? d.format(LOCAL_FORMAT) : null),
};

const POSITIONS = {
  facebook: FACEBOOK_POSITIONS,
  instagram: INSTAGRAM_POSITIONS,
  audience_network: AUDIENCE_NETWORK_POSITIONS,
  messenger: MESSENGER_POSITIONS,
} as const;

/** Counts of the draft as it stands: per account and over every chosen account. */
export function liveCounts(v: Partial<WizardValues> | undefined) {
  if (!v?.creatives || !v.structure) return null;
  const c = countable(v.creatives);
  const per = structureCounts({ creatives: c, structure: v.structure });
  const accounts = v.where?.accounts.length ?? 0;
  const variants = structureCounts({ creatives: c, structure: { campaigns_per_account: 1, adsets_per_campaign: 1, ads_per_adset: null } }).ads;
  return { per, accounts, variants, total: { campaigns: per.campaigns * accounts, adsets: per.adsets * accounts, ads: per.ads * accounts } };
}

function StructureCard() {
  const { t } = useTranslation('publish');
  const form = Form.useFormInstance<WizardValues>();
  const values = Form.useWatch([], { form, preserve: true }) as WizardValues | undefined;
  const counts = liveCounts(values);
  const perAdset = values?.structure?.ads_per_adset ?? null;
  const unused = counts && perAdset !== null ? Math.max(0, counts.variants - counts.per.adsets * perAdset) : 0;
  return (
    <Card size="small" title={t('settings.structure.title')}>
      <Flex gap={16} wrap align="flex-start">
        <Form.Item name={['structure', 'campaigns_per_account']} label={t('settings.structure.campaigns')} rules={[{ required: true, message: t('settings.structure.required') }]}>
          <InputNumber min={1} max={PUBLISH_LIMITS.campaignsPerAccount} precision={0} style={{ width: 140 }} />
        </Form.Item>
        <Form.Item name={['structure', 'adsets_per_campaign']} label={t('settings.structure.adsets')} rules={[{ required: true, message: t('settings.structure.required') }]}>
          <InputNumber min={1} max={PUBLISH_LIMITS.adsetsPerCampaign} precision={0} style={{ width: 140 }} />
        </Form.Item>
        <Form.Item
          label={t('settings.structure.ads')}
          name={['structure', 'ads_per_adset']}
          dependencies={[['creatives'], ['structure', 'campaigns_per_account'], ['structure', 'adsets_per_campaign']]}
          rules={[
            {
              validator: async (_, n: number | null) => {
                const v = form.getFieldsValue(true) as WizardValues;
                const live = structureCounts({ creatives: countable(v.creatives), structure: { ...v.structure, ads_per_adset: null } });
                const perSet = n ?? live.ads / Math.max(1, live.adsets);
                if (perSet > PUBLISH_LIMITS.adsPerAdset) throw new Error(t('settings.structure.adsPerAdsetMax', { count: perSet, max: PUBLISH_LIMITS.adsPerAdset }));
                const accounts = v.where.accounts.length;
                const total = structureCounts({ creatives: countable(v.creatives), structure: v.structure }).ads * accounts;
                if (total > PUBLISH_LIMITS.adsPerScheme) throw new Error(t('settings.structure.adsPerSchemeMax', { count: total, max: PUBLISH_LIMITS.adsPerScheme }));
              },
            },
          ]}
        >
          <AdsPerAdset />
        </Form.Item>
      </Flex>
      {counts && (
        <Descriptions
          size="small"
          bordered
          column={{ xs: 1, md: 2 }}
          data-testid="structure-counts"
          items={[
            { key: 'per', label: t('settings.structure.perAccount'), children: t('settings.structure.counts', { campaigns: counts.per.campaigns, adsets: counts.per.adsets, ads: counts.per.ads }) },
            {
              key: 'total',
              label: t('settings.structure.total', { count: counts.accounts }),
              children: t('settings.structure.counts', { campaigns: formatCount(counts.total.campaigns), adsets: formatCount(counts.total.adsets), ads: formatCount(counts.total.ads) }),
            },
          ]}
        />
      )}
      {unused > 0 && <Alert style={{ marginTop: 8 }} type="warning" showIcon title={t('settings.structure.unused', { count: unused })} />}
    </Card>
  );
}

/** "Every ad in each ad set" (null) or a number of ads dealt to each ad set in turn. */
function AdsPerAdset({ value, onChange }: { value?: number | null; onChange?: (v: number | null) => void }) {
  const { t } = useTranslation('publish');
  return (
    <Flex gap={8} align="center">
      <Radio.Group
        value={value === null || value === undefined ? 'all' : 'some'}
        onChange={(e) => onChange?.(e.target.value === 'all' ? null : 1)}
        options={[
          { value: 'all', label: t('settings.structure.allAds') },
          { value: 'some', label: t('settings.structure.someAds') },
        ]}
      />
      {value !== null && value !== undefined && (
        <InputNumber min={1} max={PUBLISH_LIMITS.adsPerAdset} precision={0} value={value} onChange={(n) => onChange?.(n ?? 1)} style={{ width: 100 }} aria-label={t('settings.structure.adsNumber')} />
      )}
    </Flex>
  );
}

/** Each account's budget in its own currency and in USD, with the minimum the platform takes. */
function BudgetPerAccount() {
  const { t } = useTranslation('publish');
  const { accounts, fx } = useWizard();
  const chosen = (Form.useWatch(['where', 'accounts'], { preserve: true }) ?? []) as WizardValues['where']['accounts'];
  const camp = Form.useWatch('campaign', { preserve: true }) as WizardValues['campaign'] | undefined;
  if (!camp || !chosen.length) return null;
  const rows = chosen.map((a) => {
    const acc = accounts.get(a.ad_account_id);
    const currency = acc?.currency ?? 'USD';
    const rate = fx[currency] ?? null;
    const major = a.budget ?? (camp.budget == null ? null : camp.budget_basis === 'usd' ? (rate ? camp.budget * rate : null) : camp.budget);
    const usd = major !== null && rate ? major / rate : null;
    const low = camp.budget_kind === 'daily' && major !== null && acc?.min_daily_budget != null && major < acc.min_daily_budget;
    return { key: a.ad_account_id, name: acc?.name ?? `#${a.ad_account_id}`, currency, major, usd, low, min: acc?.min_daily_budget ?? null, own: a.budget != null };
  });
  return (
    <Table
      size="small"
      pagination={rows.length > 8 ? { pageSize: 8, size: 'small', showSizeChanger: false } : false}
      dataSource={rows}
      data-testid="budget-per-account"
      columns={[
        { key: 'name', title: t('where.columns.account'), render: (_, r) => r.name },
        {
          key: 'budget',
          title: t(camp.budget_kind === 'daily' ? 'settings.campaign.dailyBudget' : 'settings.campaign.lifetimeBudget'),
          render: (_, r) => (
            <Typography.Text type={r.low ? 'danger' : undefined}>
              {r.major === null ? '-' : formatMoney(r.major, r.currency)}
              {r.own ? ` (${t('settings.campaign.ownBudget')})` : ''}
              {r.low ? ` · ${t('settings.campaign.belowMin', { min: formatMoney(r.min, r.currency) })}` : ''}
            </Typography.Text>
          ),
        },
        { key: 'usd', title: 'USD', align: 'right', width: 140, render: (_, r) => (r.usd === null ? '-' : formatMoney(r.usd, 'USD')) },
      ]}
    />
  );
}

function CampaignCard() {
  const { t } = useTranslation('publish');
  const form = Form.useFormInstance<WizardValues>();
  const { accounts } = useWizard();
  const camp = Form.useWatch('campaign', { form, preserve: true }) as WizardValues['campaign'] | undefined;
  const chosen = (Form.useWatch(['where', 'accounts'], { form, preserve: true }) ?? []) as WizardValues['where']['accounts'];
  const countries = (Form.useWatch(['adset', 'countries'], { form, preserve: true }) ?? []) as string[];
  const currencies = [...new Set(chosen.map((a) => accounts.get(a.ad_account_id)?.currency).filter((c): c is string => Boolean(c)))];
  const basis = camp?.budget_basis ?? 'account';
  const unit = basis === 'usd' ? 'USD' : currencies.length === 1 ? currencies[0]! : t('settings.campaign.eachCurrency');
  const decimals = basis === 'usd' || currencies.length !== 1 ? 2 : currencyDecimals(currencies[0]!);
  const mixed = basis === 'account' && currencies.length > 1 && chosen.some((a) => a.budget == null);
  const strategy = camp?.bid_strategy;
  const zone = marketZone(countries, accounts.get(chosen[0]?.ad_account_id ?? 0)?.timezone_name);

  return (
    <Card size="small" title={t('settings.campaign.title')}>
      <Flex gap={16} wrap align="flex-start">
        <Form.Item name={['campaign', 'objective']} label={t('settings.campaign.objective')} style={{ width: 240 }}>
          <Select
            options={PUBLISH_OBJECTIVES.map((o) => ({ value: o, label: t(`enums.objective.${o}`) }))}
            onChange={(o: PublishObjective) => {
              const goal = form.getFieldValue(['adset', 'optimization_goal']) as string;
              if (!(GOALS_BY_OBJECTIVE[o] as readonly string[]).includes(goal)) form.setFieldValue(['adset', 'optimization_goal'], GOALS_BY_OBJECTIVE[o][0]);
            }}
          />
        </Form.Item>
        <Form.Item name={['campaign', 'budget_level']} label={t('settings.campaign.budgetLevel')} extra={t(`settings.campaign.budgetLevelHelp.${camp?.budget_level ?? 'campaign'}`)} style={{ maxWidth: 360 }}>
          <Radio.Group
            optionType="button"
            options={[
              { value: 'campaign', label: t('settings.campaign.cbo') },
              { value: 'adset', label: t('settings.campaign.abo') },
            ]}
          />
        </Form.Item>
        <Form.Item name={['campaign', 'budget_kind']} label={t('settings.campaign.budgetKind')}>
          <Radio.Group
            optionType="button"
            options={[
              { value: 'daily', label: t('settings.campaign.daily') },
              { value: 'lifetime', label: t('settings.campaign.lifetime') },
            ]}
          />
        </Form.Item>
      </Flex>
      <Flex gap={16} wrap align="flex-start">
        <Form.Item
          name={['campaign', 'budget']}
          label={t(camp?.budget_kind === 'lifetime' ? 'settings.campaign.lifetimeBudget' : 'settings.campaign.dailyBudget')}
          rules={[
            { required: true, message: t('settings.campaign.budgetRequired') },
            { type: 'number', min: 0.01, message: t('settings.campaign.budgetPositive') },
          ]}
        >
          <InputNumber min={0} max={1_000_000_000} precision={decimals} suffix={unit} style={{ width: 260 }} />
        </Form.Item>
        <Form.Item name={['campaign', 'budget_basis']} label={t('settings.campaign.basis')}>
          <Radio.Group
            options={[
              { value: 'account', label: t('settings.campaign.basisAccount') },
              { value: 'usd', label: t('settings.campaign.basisUsd') },
            ]}
          />
        </Form.Item>
        <Form.Item name={['campaign', 'bid_strategy']} label={t('settings.campaign.bidStrategy')} style={{ width: 240 }}>
          <Select options={BID_STRATEGIES.map((b) => ({ value: b, label: t(`enums.bidStrategy.${b}`) }))} onChange={() => void form.validateFields([['adset', 'optimization_goal']]).catch(() => undefined)} />
        </Form.Item>
        {isCapped(strategy) && (
          <Form.Item
            name={['campaign', 'bid_amount']}
            label={t(strategy === 'COST_CAP' ? 'settings.campaign.costCap' : 'settings.campaign.bidCap')}
            extra={t('settings.campaign.bidHelp')}
            dependencies={[['campaign', 'budget']]}
            rules={[
              { required: true, message: t('settings.campaign.bidRequired') },
              {
                validator: async (_, bid?: number | null) => {
                  const budget = form.getFieldValue(['campaign', 'budget']) as number | null;
                  if (bid && budget && budget < bid * 5) throw new Error(t('settings.campaign.bidTooHigh', { min: bid * 5 }));
                },
              },
            ]}
          >
            <InputNumber min={0.01} max={1_000_000_000} precision={decimals} suffix={unit} style={{ width: 200 }} />
          </Form.Item>
        )}
        {strategy === 'LOWEST_COST_WITH_MIN_ROAS' && (
          <Form.Item name={['campaign', 'roas_floor']} label={t('settings.campaign.roasFloor')} extra={t('settings.campaign.roasHelp')} rules={[{ required: true, message: t('settings.campaign.roasRequired') }]}>
            <InputNumber min={0.01} max={1000} step={0.1} precision={2} style={{ width: 160 }} />
          </Form.Item>
        )}
        {camp?.budget_kind === 'lifetime' && (
          <Form.Item
            name={['campaign', 'end_local']}
            label={t('settings.campaign.end')}
            extra={t('settings.zoneNote', { zone })}
            {...wallTimeProps}
            dependencies={[['adset', 'start_local']]}
            rules={[
              { required: true, message: t('settings.campaign.endRequired') },
              {
                validator: async (_, end?: string | null) => {
                  const start = form.getFieldValue(['adset', 'start_local']) as string | null;
                  if (end && start && end <= start) throw new Error(t('settings.campaign.endBeforeStart'));
                  const at = end ? wallToInstant(end, zone) : null;
                  if (at && Date.parse(at) <= Date.now()) throw new Error(t('settings.inPast'));
                },
              },
            ]}
          >
            <DatePicker showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" style={{ width: 200 }} />
          </Form.Item>
        )}
      </Flex>
      {mixed && <Alert type="warning" showIcon title={t('settings.campaign.mixedCurrencies', { list: currencies.join(', ') })} style={{ marginBottom: 12 }} />}
      <BudgetPerAccount />
    </Card>
  );
}

function AdsetCard() {
  const { t, i18n } = useTranslation('publish');
  const form = Form.useFormInstance<WizardValues>();
  const { accounts, goTo } = useWizard();
  const set = Form.useWatch('adset', { form, preserve: true }) as WizardValues['adset'] | undefined;
  const objective = (Form.useWatch(['campaign', 'objective'], { form, preserve: true }) ?? 'OUTCOME_SALES') as PublishObjective;
  const chosen = (Form.useWatch(['where', 'accounts'], { form, preserve: true }) ?? []) as WizardValues['where']['accounts'];
  const countries = set?.countries ?? [];
  const eu = euTargeted(countries);
  const pixelGoal = needsPixel(set?.optimization_goal);
  const missingPixel = pixelGoal ? chosen.filter((a) => !a.pixel_id).map((a) => accounts.get(a.ad_account_id)?.name ?? `#${a.ad_account_id}`) : [];
  const zone = marketZone(countries, accounts.get(chosen[0]?.ad_account_id ?? 0)?.timezone_name);
  const zones = useMemo(() => timeZoneOptions([zone]), [zone]);
  const manual = set?.placements.mode === 'manual';
  const platforms = (set?.placements.mode === 'manual' ? set.placements.publisher_platforms : []) ?? [];

  return (
    <Card size="small" title={t('settings.adset.title')}>
      <Flex gap={16} wrap align="flex-start">
        <Form.Item
          name={['adset', 'countries']}
          label={t('settings.adset.countries')}
          style={{ flex: '1 1 360px', maxWidth: 560 }}
          rules={[
            { required: true, type: 'array', min: 1, message: t('settings.adset.countriesRequired') },
            { type: 'array', max: 50, message: t('settings.adset.countriesMax', { max: 50 }) },
          ]}
          normalize={(list: string[]) => [...new Set(list.map((c) => c.trim().toUpperCase()).filter((c) => /^[A-Z]{2}$/.test(c)))]}
        >
          <Select mode="tags" options={countryOptions(i18n.language)} showSearch={{ optionFilterProp: 'label' }} tokenSeparators={[',', ' ']} placeholder={t('settings.adset.countriesHint')} />
        </Form.Item>
        <Form.Item label={t('settings.adset.age')} required>
          <Flex gap={8} align="center">
            <Form.Item name={['adset', 'age_min']} noStyle>
              <InputNumber min={13} max={65} precision={0} style={{ width: 80 }} aria-label={t('settings.adset.ageMin')} />
            </Form.Item>
            <span>–</span>
            <Form.Item
              name={['adset', 'age_max']}
              noStyle
              dependencies={[['adset', 'age_min']]}
              rules={[
                {
                  validator: async (_, max?: number) => {
                    const min = form.getFieldValue(['adset', 'age_min']) as number | undefined;
                    if (min && max && min > max) throw new Error(t('settings.adset.ageOrder'));
                  },
                },
              ]}
            >
              <InputNumber min={13} max={65} precision={0} style={{ width: 80 }} aria-label={t('settings.adset.ageMax')} />
            </Form.Item>
          </Flex>
        </Form.Item>
        <Form.Item name={['adset', 'genders']} label={t('settings.adset.genders')}>
          <Radio.Group
            optionType="button"
            options={(['all', 'male', 'female'] as const).map((g) => ({ value: g, label: t(`settings.adset.gender.${g}`) }))}
          />
        </Form.Item>
        <Form.Item name={['adset', 'advantage_audience']} label={t('settings.adset.advantageAudience')} valuePropName="checked">
          <Switch />
        </Form.Item>
      </Flex>
      {eu.length > 0 && (
        <Flex vertical gap={0}>
          <Alert type="info" showIcon title={t('settings.adset.euNote', { list: eu.join(', ') })} style={{ marginBottom: 12 }} />
          <Flex gap={16} wrap>
            <Form.Item name={['adset', 'dsa_beneficiary']} label={t('settings.adset.beneficiary')} rules={[{ required: true, whitespace: true, message: t('settings.adset.beneficiaryRequired') }, { max: 200 }]} style={{ flex: '1 1 280px' }}>
              <Input maxLength={200} />
            </Form.Item>
            <Form.Item name={['adset', 'dsa_payor']} label={t('settings.adset.payer')} rules={[{ required: true, whitespace: true, message: t('settings.adset.payerRequired') }, { max: 200 }]} style={{ flex: '1 1 280px' }}>
              <Input maxLength={200} />
            </Form.Item>
          </Flex>
        </Flex>
      )}
      <Flex gap={16} wrap align="flex-start">
        <Form.Item
          name={['adset', 'optimization_goal']}
          label={t('settings.adset.goal')}
          style={{ width: 260 }}
          rules={[
            {
              validator: async (_, goal?: string) => {
                const strategy = form.getFieldValue(['campaign', 'bid_strategy']) as string;
                if (strategy === 'LOWEST_COST_WITH_MIN_ROAS' && goal !== 'VALUE') throw new Error(t('settings.adset.roasNeedsValue'));
                const list = (form.getFieldValue(['where', 'accounts']) as WizardValues['where']['accounts']) ?? [];
                if (needsPixel(goal) && list.some((a) => !a.pixel_id)) throw new Error(t('settings.adset.pixelMissing'));
              },
            },
          ]}
        >
          <Select options={GOALS_BY_OBJECTIVE[objective].map((g) => ({ value: g, label: t(`enums.goal.${g}`) }))} />
        </Form.Item>
        {pixelGoal && (
          <Form.Item name={['adset', 'conversion_event']} label={t('settings.adset.event')} style={{ width: 220 }} rules={[{ required: true, message: t('settings.adset.eventRequired') }]}>
            <Select options={CONVERSION_EVENTS.map((e) => ({ value: e, label: t(`enums.event.${e}`) }))} />
          </Form.Item>
        )}
        <Form.Item name={['adset', 'attribution']} label={t('settings.adset.attribution')} style={{ width: 260 }}>
          <Select options={ATTRIBUTIONS.map((a) => ({ value: a, label: t(`enums.attribution.${a}`) }))} />
        </Form.Item>
      </Flex>
      {missingPixel.length > 0 && (
        <Alert
          type="error"
          showIcon
          style={{ marginBottom: 12 }}
          title={t('settings.adset.pixelMissingList', { list: missingPixel.join(', ') })}
          action={
            <Button size="small" onClick={() => goTo(2)}>
              {t('settings.backToWhere')}
            </Button>
          }
        />
      )}
      <Flex gap={16} wrap align="flex-start">
        <Form.Item
          name={['adset', 'start_local']}
          label={t('settings.adset.start')}
          extra={t('settings.adset.startHelp')}
          {...wallTimeProps}
          rules={[
            {
              validator: async (_, local?: string | null) => {
                if (!local) return;
                const z = (form.getFieldValue(['adset', 'start_time_zone']) as string | null) || zone;
                const at = wallToInstant(local, z);
                if (at && Date.parse(at) <= Date.now()) throw new Error(t('settings.inPast'));
              },
            },
          ]}
        >
          <DatePicker showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" placeholder={t('settings.adset.startNow')} style={{ width: 200 }} />
        </Form.Item>
        <Form.Item name={['adset', 'start_time_zone']} label={t('settings.adset.startZone')} extra={t('settings.adset.startZoneHelp', { zone })} style={{ width: 280 }}>
          <Select allowClear showSearch options={zones} placeholder={zone} />
        </Form.Item>
      </Flex>
      <Form.Item label={t('settings.adset.placements')} style={{ marginBottom: manual ? 8 : 0 }}>
        <Radio.Group
          value={set?.placements.mode ?? 'advantage'}
          onChange={(e) =>
            form.setFieldValue(
              ['adset', 'placements'],
              e.target.value === 'advantage'
                ? { mode: 'advantage' }
                : { mode: 'manual', publisher_platforms: ['facebook', 'instagram'], facebook_positions: ['feed', 'facebook_reels', 'story'], instagram_positions: ['stream', 'reels', 'story'], audience_network_positions: [], messenger_positions: [] },
            )
          }
          options={[
            { value: 'advantage', label: t('settings.adset.advantagePlacements') },
            { value: 'manual', label: t('settings.adset.manualPlacements') },
          ]}
        />
      </Form.Item>
      {manual && (
        <Flex vertical gap={4} style={{ paddingInlineStart: 16 }}>
          <Form.Item name={['adset', 'placements', 'publisher_platforms']} label={t('settings.adset.platforms')} rules={[{ required: true, type: 'array', min: 1, message: t('settings.adset.platformsRequired') }]} style={{ marginBottom: 8 }}>
            <Checkbox.Group options={PUBLISHER_PLATFORMS.map((p) => ({ value: p, label: t(`enums.platform.${p}`) }))} />
          </Form.Item>
          {PUBLISHER_PLATFORMS.filter((p) => platforms.includes(p)).map((p) => (
            <Form.Item key={p} name={['adset', 'placements', `${p}_positions`]} label={t('settings.adset.positionsOf', { platform: t(`enums.platform.${p}`) })} style={{ marginBottom: 8 }}>
              <Checkbox.Group options={POSITIONS[p].map((pos) => ({ value: pos, label: t(`enums.position.${pos}`) }))} />
            </Form.Item>
          ))}
        </Flex>
      )}
    </Card>
  );
}

function AdCard() {
  const { t } = useTranslation('publish');
  return (
    <Card size="small" title={t('settings.ad.title')}>
      <Flex gap={16} wrap>
        <Form.Item name={['ad', 'call_to_action']} label={t('settings.ad.cta')} style={{ width: 220 }}>
          <Select options={CALLS_TO_ACTION.map((c) => ({ value: c, label: t(`enums.cta.${c}`) }))} />
        </Form.Item>
        <Form.Item name={['ad', 'url_tags']} label={t('settings.ad.urlTags')} extra={t('settings.ad.urlTagsHelp')} rules={[{ max: PUBLISH_LIMITS.urlTagsMax, message: t('where.urlTagsMax', { max: PUBLISH_LIMITS.urlTagsMax }) }]} style={{ flex: '1 1 360px' }}>
          <Input placeholder="utm_source=facebook&utm_medium=paid" />
        </Form.Item>
      </Flex>
    </Card>
  );
}

function NamingCard() {
  const { t } = useTranslation('publish');
  const { platform, title, materials, accounts } = useWizard();
  const account = useSession((s) => s.userInfo?.account ?? '');
  const v = Form.useWatch([], { preserve: true }) as WizardValues | undefined;
  const firstMedia = v?.creatives.videos[0]?.material_id ?? v?.creatives.images[0];
  const material = firstMedia ? materials.get(firstMedia) : undefined;
  const titleName = title?.name ?? '';
  const example = {
    drama: platform === 'dj' ? titleName : null,
    product: platform === 'ec' ? titleName : null,
    scheme: v?.scheme_name?.trim() || titleName,
    optimizer: account,
    editor: material?.editor?.name ?? null,
    material: v?.creatives.source === 'posts' ? (v.creatives.posts[0]?.post_id?.split('_')[1] ?? null) : material ? stem(material.file_name) : null,
    country: v?.adset.countries[0] ?? null,
    account: accounts.get(v?.where.accounts[0]?.ad_account_id ?? 0)?.name ?? null,
    date: compactDate(),
    seq: '1',
  };
  const tokens = platform === 'dj' ? TOKENS_DJ : TOKENS_EC;
  const rules = [
    { required: true, whitespace: true, message: t('settings.naming.required') },
    {
      validator: async (_: unknown, tpl?: string) => {
        const bad = unknownTokens(tpl ?? '');
        if (bad.length) throw new Error(t('settings.naming.unknown', { list: bad.map((b) => `{${b}}`).join(' ') }));
      },
    },
  ];
  return (
    <Card size="small" title={t('settings.naming.title')} extra={<Typography.Text type="secondary">{t('settings.naming.help')}</Typography.Text>}>
      <Flex vertical gap={4}>
        {(['campaign', 'adset', 'ad'] as const).map((level) => (
          <Form.Item key={level} name={['naming', level]} label={t(`settings.naming.${level}`)} rules={rules}>
            <NamingField tokens={tokens} example={example} label={t(`settings.naming.${level}`)} />
          </Form.Item>
        ))}
      </Flex>
    </Card>
  );
}

/** Step 4: how many objects, and the campaign, ad set and ad settings with the naming templates. */
export function StepSettings() {
  return (
    <Flex vertical gap={16}>
      <StructureCard />
      <CampaignCard />
      <AdsetCard />
      <AdCard />
      <NamingCard />
    </Flex>
  );
}
