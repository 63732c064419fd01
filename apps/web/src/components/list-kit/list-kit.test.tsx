import { screen, waitFor, within } from '@testing-library/react';
import { useQuery } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { pageBodySchema } from '@ads/contracts';
import { mockApi } from '@/testing/mock-api';
import { renderScreen } from '@/testing/render';
import { useSession } from '@/stores/session-store';
import { presetOf, presetRange, todayIn } from './date-presets';
import { ListTable, tableScrollX, type ListColumn } from './list-table';
import { metricColumns, metricWidth, type MetricRow } from './metric-columns';
import { useColumnPrefs } from './use-column-prefs';
import { useListQuery } from './use-list-query';
import { useRowSelection } from './use-row-selection';
import { ColumnChooser } from './column-chooser';
import { DateRangeField } from './date-range-field';

interface Row {
  id: number;
  name: string;
  spend: number;
}
type Page = { list: Row[]; total: number; outside_scope?: number; summary?: { spend: number } };

const schema = pageBodySchema.extend({ keyword: z.string().optional() });
const rows = (n: number, from = 1): Row[] => Array.from({ length: n }, (_, i) => ({ id: from + i, name: `Row ${from + i}`, spend: 10 * (from + i) }));

/** A list screen built only from the kit, over a fake answer. */
function Screen({ answer }: { answer: (q: z.output<typeof schema>) => Page | Promise<Page> }) {
  const list = useListQuery(schema, { filterKeys: ['keyword'] });
  const result = useQuery({ queryKey: ['kit', list.query], queryFn: () => answer(list.query) });
  const selection = useRowSelection<Row>((r) => r.id);
  const prefs = useColumnPrefs('/kit/test', ['spend']);
  const columns: ListColumn<Row>[] = [
    { key: 'name', title: 'Name', dataIndex: 'name', width: 200, sortable: true, locked: true },
    { key: 'spend', title: 'Spend', dataIndex: 'spend', width: 120, align: 'right', total: result.data?.summary && `$${result.data.summary.spend}` },
  ];
  return (
    <>
      <ColumnChooser columns={columns} prefs={prefs} />
      <ListTable<Row, Page>
        list={list}
        result={result}
        rowKey="id"
        columns={columns}
        hidden={prefs.hidden}
        totalsLabel="All rows"
        selection={{ ...selection.tableSelection, label: (r) => r.name }}
        empty={{ text: 'Nothing yet', outsideScope: (n) => `${n} rows belong to others` }}
      />
      <span data-testid="selected">{selection.keys.join(',')}</span>
    </>
  );
}

describe('ListTable', () => {
  it('shows the totals row from the summary, the hidden-by-default columns in the chooser, and sorts through the URL', async () => {
    mockApi({});
    const { user, router } = renderScreen(<Screen answer={() => ({ list: rows(2), total: 2, summary: { spend: 30 } })} />, { url: '/kit' });
    await screen.findByText('Row 1');
    // Spend is hidden by default: its total shows once it is chosen.
    expect(screen.queryByRole('columnheader', { name: 'Spend' })).toBeNull();
    await user.click(screen.getByRole('button', { name: /Columns/ }));
    await user.click(within(await screen.findByTestId('column-chooser')).getByLabelText('Spend'));
    const totals = within(await screen.findByTestId('totals-row'));
    expect(totals.getByText('All rows')).toBeTruthy();
    expect(totals.getByText('$30')).toBeTruthy();
    await user.click(screen.getByRole('columnheader', { name: /Name/ }));
    await waitFor(() => expect(router.state.location.search).toBe('?sort_field=name&sort_order=ascend'));
  });

  it('selects across pages with translated checkboxes', async () => {
    mockApi({});
    const { user } = renderScreen(<Screen answer={(q) => ({ list: rows(q.page_size, (q.page - 1) * q.page_size + 1), total: 45 })} />, { url: '/kit?page_size=10' });
    await screen.findByText('Row 1');
    await user.click(screen.getByRole('checkbox', { name: 'Select all on this page' }));
    await user.click(screen.getByRole('listitem', { name: '2' }));
    await screen.findByText('Row 11');
    await user.click(screen.getByRole('checkbox', { name: 'Row 12' }));
    expect(screen.getByTestId('selected').textContent).toBe('1,2,3,4,5,6,7,8,9,10,12');
  });

  it('says when rows exist outside the viewer’s scope, "no results" under filters, and the first-use text otherwise', async () => {
    mockApi({});
    const first = renderScreen(<Screen answer={() => ({ list: [], total: 0, outside_scope: 3 })} />, { url: '/kit' });
    expect((await screen.findByTestId('outside-scope')).textContent).toBe('3 rows belong to others');
    first.unmount();
    const filtered = renderScreen(<Screen answer={() => ({ list: [], total: 0, outside_scope: 3 })} />, { url: '/kit?keyword=zz' });
    await screen.findByText('Nothing matches these filters. Try widening them.');
    filtered.unmount();
    renderScreen(<Screen answer={() => ({ list: [], total: 0 })} />, { url: '/kit' });
    await screen.findByText('Nothing yet');
  });

  it('offers a retry when loading fails, and shows the rows once it works', async () => {
    mockApi({});
    let calls = 0;
    const { user } = renderScreen(
      <Screen
        answer={() => {
          calls += 1;
          if (calls === 1) throw new Error('offline');
          return { list: rows(1), total: 1 };
        }}
      />,
      { url: '/kit' },
    );
    await user.click(await screen.findByRole('button', { name: 'Retry' }));
    await screen.findByText('Row 1');
    expect(calls).toBe(2);
  });

  it('keeps column widths as given, so the scroll width is their sum plus the checkbox column', () => {
    expect(tableScrollX([{ width: 200 }, { width: 120 }, {}], 40)).toBe(480);
  });
});

describe('column sets', () => {
  it('saves the shown columns under a name on the server and applies them later', async () => {
    const backend = mockApi({}, { preferences: { 'columns:/kit/test': { hidden: [], sets: [] } } });
    const { user } = renderScreen(<Screen answer={() => ({ list: rows(1), total: 1, summary: { spend: 10 } })} />, { url: '/kit' });
    await screen.findByRole('columnheader', { name: 'Spend' });
    await user.click(screen.getByRole('button', { name: /Columns/ }));
    const chooser = within(await screen.findByTestId('column-chooser'));
    await user.type(chooser.getByLabelText('Save these columns as a set'), 'Everything');
    await user.click(chooser.getByRole('button', { name: 'Save' }));
    await user.click(chooser.getByLabelText('Spend'));
    await waitFor(() => expect(screen.queryByRole('columnheader', { name: 'Spend' })).toBeNull());
    await user.click(chooser.getByRole('button', { name: 'Apply "Everything"' }));
    await screen.findByRole('columnheader', { name: 'Spend' });
    expect(backend.preference('columns:/kit/test')).toEqual({ hidden: [], sets: [{ name: 'Everything', columns: ['name', 'spend'] }] });
    await user.click(chooser.getByRole('button', { name: 'Delete "Everything"' }));
    await waitFor(() => expect(backend.preference('columns:/kit/test')).toEqual({ hidden: [], sets: [] }));
  });
});

describe('date presets', () => {
  // 2026-11-30 23:30 UTC is already 1 December in Shanghai.
  const now = new Date('2026-11-30T23:30:00Z');
  it('are days in the reporting time zone, not the browser’s', () => {
    expect(todayIn('Asia/Shanghai', now)).toBe('2026-12-01');
    expect(todayIn('UTC', now)).toBe('2026-11-30');
    expect(presetRange('today', 'Asia/Shanghai', now)).toEqual(['2026-12-01', '2026-12-01']);
    expect(presetRange('yesterday', 'Asia/Shanghai', now)).toEqual(['2026-11-30', '2026-11-30']);
    expect(presetRange('last7', 'Asia/Shanghai', now)).toEqual(['2026-11-25', '2026-12-01']);
    expect(presetRange('last30', 'UTC', now)).toEqual(['2026-11-01', '2026-11-30']);
    expect(presetRange('thisMonth', 'Asia/Shanghai', now)).toEqual(['2026-12-01', '2026-12-01']);
    expect(presetRange('thisMonth', 'America/Los_Angeles', now)).toEqual(['2026-11-01', '2026-11-30']);
  });
  it('name a shared range when it is one of them', () => {
    expect(presetOf(['2026-11-25', '2026-12-01'], 'Asia/Shanghai', now)).toBe('last7');
    expect(presetOf(['2026-11-24', '2026-12-01'], 'Asia/Shanghai', now)).toBeUndefined();
  });
  it('are offered by the range field in the session’s zone', async () => {
    mockApi({});
    const picked: unknown[] = [];
    const { user } = renderScreen(<DateRangeField now={now} onChange={(r) => picked.push(r)} />, { url: '/d' });
    useSession.setState((s) => ({ userInfo: s.userInfo && { ...s.userInfo, report_timezone: 'America/Los_Angeles' } }));
    await user.click(await screen.findByText('This month'));
    useSession.setState((s) => ({ userInfo: s.userInfo && { ...s.userInfo, report_timezone: 'Asia/Shanghai' } }));
    await user.click(await screen.findByText('Yesterday'));
    expect(picked).toEqual([
      ['2026-11-01', '2026-11-30'],
      ['2026-11-30', '2026-11-30'],
    ]);
  });
});

describe('metric columns', () => {
  type R = MetricRow & { id: number };
  it('format values as exports do, show the change against the previous period in its good or bad colour, and total from the summary', async () => {
    mockApi({});
    const columns = metricColumns<R>(['spend', 'ctr', 'cpc'], {
      lang: 'en',
      compare: true,
      summary: { metrics: { spend: 1234.5, ctr: 2, cpc: null }, previous: { spend: 1000, ctr: 2.5, cpc: 0.5 } },
    });
    function Report() {
      const list = useListQuery(pageBodySchema, { filterKeys: [] });
      const result = useQuery({
        queryKey: ['report'],
        queryFn: async () => ({ list: [{ id: 1, metrics: { spend: 10, ctr: 1.5, cpc: 0.25 }, previous: { spend: 20, ctr: 1, cpc: 0.5 } }], total: 1 }),
      });
      return <ListTable<R, { list: R[]; total: number }> list={list} result={result} rowKey="id" columns={[{ key: 'id', title: 'Campaign', dataIndex: 'id', width: 160 }, ...columns]} empty={{ text: '' }} />;
    }
    renderScreen(<Report />, { url: '/r' });
    const row = within((await screen.findByText('$10.00')).closest('tr')!);
    expect(row.getByText('1.50%')).toBeTruthy();
    expect(row.getByText('$0.25')).toBeTruthy();
    // Spend halved (neutral), CTR up 50 % (good), CPC halved (a cost going down: good).
    expect(row.getAllByTestId('change-spend')[0]!.textContent).toBe('-50.0%');
    expect(row.getAllByTestId('change-ctr')[0]!.textContent).toBe('+50.0%');
    expect(row.getAllByTestId('change-ctr')[0]!.className).toMatch(/success/);
    expect(row.getAllByTestId('change-cpc')[0]!.className).toMatch(/success/);
    const totals = within(screen.getByTestId('totals-row'));
    expect(totals.getByText('$1,234.50')).toBeTruthy();
    // CPC of the total has no value (no previous either): "-" twice.
    expect(totals.getAllByText('-')).toHaveLength(2);
    expect(totals.getByText('Total')).toBeTruthy();
  });

  it('show a cohort metric with nothing matured as not matured in rows and totals, never a number', async () => {
    mockApi({});
    const columns = metricColumns<R>(['spend', 'd0_roi', 'd7_roi'], { lang: 'en', summary: { metrics: { spend: 60, d0_roi: 25, d7_roi: null } }, notMatured: ['d7_roi'], notMaturedText: 'Not matured' });
    function Report() {
      const list = useListQuery(pageBodySchema, { filterKeys: [] });
      const result = useQuery({ queryKey: ['cohort'], queryFn: async () => ({ list: [{ id: 1, metrics: { spend: 30, d0_roi: 12.5, d7_roi: null } }], total: 1 }) });
      return <ListTable<R, { list: R[]; total: number }> list={list} result={result} rowKey="id" columns={[{ key: 'id', title: 'Campaign', dataIndex: 'id', width: 160 }, ...columns]} empty={{ text: '' }} />;
    }
    renderScreen(<Report />, { url: '/r' });
    const row = within((await screen.findByText('12.50%')).closest('tr')!);
    expect(row.getByTestId('not-matured-d7_roi').textContent).toBe('Not matured');
    const totals = within(screen.getByTestId('totals-row'));
    expect(totals.getByTestId('not-matured-d7_roi').textContent).toBe('Not matured');
    expect(totals.getByText('25.00%')).toBeTruthy();
  });

  it('size a metric column so that no English word of its title is split, and keep the base width for Chinese titles', () => {
    // "Impressions" split into "Impressio/ns" at 110 px in the English report (seen on a screenshot).
    expect(metricWidth('Impressions', false)).toBeGreaterThanOrEqual(140);
    expect(metricWidth('Purchases (pixel)', false)).toBeGreaterThan(metricWidth('CTR', false));
    expect(metricWidth('展示次数', false)).toBe(110);
    expect(metricWidth('购买（像素）', true)).toBe(120);
    expect(metricWidth('CTR', true)).toBe(120);
    // A dollar sum holds a seven-digit total on one line ("$1,538,167.40" in bold).
    expect(metricWidth('Spend', false, true)).toBeGreaterThanOrEqual(146);
    expect(metricWidth('花费', true, true)).toBe(156);
  });
});
