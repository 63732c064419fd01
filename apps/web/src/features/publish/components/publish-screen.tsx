import { PUBLISH_PATH_OF, type Platform } from '@ads/contracts';
import { Button, Flex, Result, Skeleton, Tabs } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageShell } from '@/components/page-shell';
import { useRouteTitle } from '@/components/use-route-title';
import '@/locales/publish-namespace';
import { useSchemeDraft } from '../api/use-schemes';
import { fromDraft } from './draft';
import { PublishWizard } from './publish-wizard';
import { SchemeDetail } from './scheme-detail';
import { SchemeList } from './scheme-list';
import { usePublishScreenQuery } from './screen-query';

/**
 * 短剧发布 / 电商发布: the wizard (tab "new scheme"), the platform's schemes (tab "schemes"), and
 * one scheme's live progress (`?scheme=`). `?from=` starts a new scheme from a past one's draft.
 */
export function PublishScreen({ platform }: { platform: Platform }) {
  const { t } = useTranslation('publish');
  const title = useRouteTitle(PUBLISH_PATH_OF[platform]);
  const list = usePublishScreenQuery();
  const { query, patch } = list;
  // The past scheme a new one starts from: a link's `?from=`, or "new from this" on this page.
  // Kept here (not in the URL) so the wizard keeps its draft once the link forgets it.
  const [source, setSource] = useState<{ id: number; nonce: number } | null>(query.from ? { id: query.from, nonce: 0 } : null);
  const draft = useSchemeDraft(source?.id ?? null);
  const initial = useMemo(() => (draft.data && source ? { values: fromDraft(draft.data.draft), origin: `${source.id}:${source.nonce}` } : null), [draft.data, source]);

  // The link forgets `from` once the draft is in, so a refresh keeps the edits made since.
  useEffect(() => {
    if (initial && query.from) patch({ from: undefined }, { replace: true });
  }, [initial, query.from, patch]);

  const open = (id: number) => patch({ scheme: id });
  const copy = (id: number) => {
    setSource((s) => ({ id, nonce: (s?.nonce ?? 0) + 1 }));
    list.set({ tab: 'new', page: 1, page_size: query.page_size });
  };

  if (query.scheme)
    return (
      <PageShell title={title}>
        <SchemeDetail id={query.scheme} onBack={() => patch({ scheme: undefined, tab: 'schemes' })} onCopy={copy} />
      </PageShell>
    );

  const wizard =
    source && !initial ? (
      draft.isError ? (
        <Result status="warning" title={t('detail.notFound')} extra={<Button onClick={() => setSource(null)}>{t('tabs.new')}</Button>} />
      ) : (
        <Skeleton active />
      )
    ) : (
      <PublishWizard key={source ? `${source.id}-${source.nonce}` : 'blank'} platform={platform} initial={initial} onSubmitted={(id) => {
          setSource(null);
          list.set({ scheme: id, page: 1, page_size: query.page_size });
        }} />
    );

  return (
    <PageShell title={title}>
      <Flex vertical>
        <Tabs
          activeKey={query.tab}
          onChange={(tab) => patch({ tab: tab as 'new' | 'schemes' })}
          items={[
            { key: 'new', label: t('tabs.new'), children: wizard },
            { key: 'schemes', label: t('tabs.schemes'), children: <SchemeList platform={platform} list={list} onOpen={open} onCopy={copy} onCreate={() => patch({ tab: 'new' })} /> },
          ]}
        />
      </Flex>
    </PageShell>
  );
}
