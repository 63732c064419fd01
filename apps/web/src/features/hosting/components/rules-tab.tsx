import { DownOutlined, PlusOutlined } from '@ant-design/icons';
import { pageBodySchema, RULE_TEMPLATE_KEYS, ruleStatusSchema, ruleTemplate, type HostingRule, type RuleDraftIn, type RuleTemplateKey } from '@ads/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Dropdown, Flex, Form, Input, Modal, Select, Space, Switch, Tag, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { FilterBar, ListTable, useListQuery, type ListColumn } from '@/components/list-kit';
import { TaskProgress } from '@/components/task-progress';
import { confirmAction } from '@/lib/confirm';
import { formatDateTime } from '@/lib/format';
import { useSettings } from '@/stores/settings-store';
import { ruleKeys, useDeleteRule, useDryRun, useRules, useRunNow, useToggleRule } from '../api/use-rules';
import { DryRunModal } from './dry-run-modal';
import { actionText, scheduleText, scopeText } from './rule-format';
import { blankRule, RuleEditor, ruleToDraft } from './rule-editor';
import type { DryRunResult } from '@ads/contracts';

export const rulesQuerySchema = pageBodySchema.extend({
  view: z.literal('rules').optional(),
  keyword: z.string().trim().max(100).optional(),
  status: ruleStatusSchema.optional(),
});

interface Filters {
  keyword?: string;
  status?: z.infer<typeof ruleStatusSchema>;
}

type Editing = { id?: number; initial: RuleDraftIn } | null;

/**
 * 规则: the rules in scope with their switch, owner, scope, action, schedule and last run; new
 * ones from the server's templates or blank; edit, dry run, run now, history, delete.
 */
export function RulesTab({ onHistory }: { onHistory: (ruleId: number) => void }) {
  const { t } = useTranslation('rules');
  const { t: tc } = useTranslation();
  const { modal, message } = App.useApp();
  const lang = useSettings((s) => (s.locale === 'en' ? 'en' : 'zh'));
  const list = useListQuery(rulesQuerySchema, { filterKeys: ['keyword', 'status'] });
  const { view: _view, ...body } = list.query;
  const rules = useRules(body);
  const toggle = useToggleRule();
  const remove = useDeleteRule();
  const dryRun = useDryRun();
  const runNow = useRunNow();
  const qc = useQueryClient();
  const [editing, setEditing] = useState<Editing>(null);
  const [dry, setDry] = useState<{ name: string; result: DryRunResult } | null>(null);
  const [running, setRunning] = useState<{ id: number; name: string; taskId: number } | null>(null);

  const fromTemplate = (key: RuleTemplateKey | 'blank') => setEditing({ initial: key === 'blank' ? blankRule() : ruleTemplate(key, lang) });

  const confirmToggle = (r: HostingRule, on: boolean) =>
    confirmAction(modal, {
      title: t(on ? 'list.confirmOn' : 'list.confirmOff', { name: r.name }),
      content: t(on ? 'list.confirmOnBody' : 'list.confirmOffBody', { action: t(`action.${r.action.type}`) }),
      okText: tc('actions.confirm'),
      action: async () => {
        await toggle.mutateAsync({ id: r.id, enabled: on });
        message.success(t(on ? 'list.switchedOn' : 'list.switchedOff'));
      },
    });

  const confirmRun = (r: HostingRule) =>
    confirmAction(modal, {
      title: t('list.confirmRun', { name: r.name }),
      content: t('list.confirmRunBody', { action: t(`action.${r.action.type}`) }),
      okText: t('list.runNow'),
      action: async () => {
        const { task_id } = await runNow.mutateAsync(r.id);
        setRunning({ id: r.id, name: r.name, taskId: task_id });
      },
    });

  const confirmDelete = (r: HostingRule) =>
    confirmAction(modal, {
      title: t('list.confirmDelete', { name: r.name }),
      content: t('list.confirmDeleteBody'),
      okText: t('list.delete'),
      danger: true,
      action: async () => {
        await remove.mutateAsync(r.id);
        message.success(t('list.deleted'));
      },
    });

  const openDryRun = async (r: HostingRule) => setDry({ name: r.name, result: await dryRun.mutateAsync({ id: r.id }) });

  const columns: ListColumn<HostingRule>[] = [
    {
      key: 'name',
      title: t('list.columns.name'),
      fixed: 'left',
      width: 200,
      locked: true,
      render: (_, r) => (
        <Flex vertical gap={2}>
          <Typography.Text strong ellipsis={{ tooltip: r.name }}>
            {r.name}
          </Typography.Text>
          <Space size={4} wrap>
            <Tag>{t(`level.${r.level}`)}</Tag>
            {r.template && <Tag color="blue">{t(`template.${r.template}`)}</Tag>}
            {r.stop_loss.enabled && r.template !== 'stop_loss' && <Tag color="volcano">{t('editor.stopLoss')}</Tag>}
          </Space>
        </Flex>
      ),
    },
    {
      key: 'enabled',
      title: t('list.columns.enabled'),
      width: 90,
      render: (_, r) => (
        <Flex vertical gap={2}>
          <Switch checked={r.enabled} aria-label={t('list.toggleLabel', { name: r.name })} onChange={(on) => confirmToggle(r, on)} size="small" />
          {r.status === 'failing' ? (
            <Tooltip title={r.paused_reason ? t('list.failing', { reason: r.paused_reason }) : undefined}>
              <Tag color="red">{t('status.failing')}</Tag>
            </Tooltip>
          ) : (
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {t(`status.${r.status}`)}
            </Typography.Text>
          )}
        </Flex>
      ),
    },
    { key: 'owner', title: t('list.columns.owner'), width: 90, render: (_, r) => r.owner.name },
    { key: 'scope', title: t('list.columns.scope'), width: 150, render: (_, r) => scopeText(t, r) },
    { key: 'action', title: t('list.columns.action'), width: 150, render: (_, r) => actionText(t, r) },
    { key: 'schedule', title: t('list.columns.schedule'), width: 130, render: (_, r) => scheduleText(t, r) },
    {
      key: 'last_run',
      title: t('list.columns.lastRun'),
      width: 170,
      render: (_, r) =>
        r.last_evaluated_at ? (
          <Flex vertical gap={2}>
            <Typography.Text>{formatDateTime(r.last_evaluated_at)}</Typography.Text>
            {r.last_result && (
              <Typography.Text type={r.last_result.failed ? 'danger' : 'secondary'} style={{ fontSize: 12 }}>
                {t('list.lastResult', r.last_result)}
              </Typography.Text>
            )}
          </Flex>
        ) : (
          <Typography.Text type="secondary">{t('list.never')}</Typography.Text>
        ),
    },
    {
      key: 'actions',
      title: t('list.columns.actions'),
      fixed: 'right',
      // Two lines of links: the whole table fits 1440 px beside the menu.
      width: 170,
      render: (_, r) => (
        <Space size={0} wrap>
          <Button type="link" size="small" aria-label={`${t('list.edit')} ${r.name}`} onClick={() => setEditing({ id: r.id, initial: ruleToDraft(r) })}>
            {t('list.edit')}
          </Button>
          <Button type="link" size="small" aria-label={`${t('list.dryRun')} ${r.name}`} loading={dryRun.isPending && dryRun.variables && 'id' in dryRun.variables && dryRun.variables.id === r.id} onClick={() => void openDryRun(r)}>
            {t('list.dryRun')}
          </Button>
          <Button type="link" size="small" aria-label={`${t('list.runNow')} ${r.name}`} onClick={() => confirmRun(r)}>
            {t('list.runNow')}
          </Button>
          <Button type="link" size="small" aria-label={`${t('list.history')} ${r.name}`} onClick={() => onHistory(r.id)}>
            {t('list.history')}
          </Button>
          <Button type="link" size="small" danger aria-label={`${t('list.delete')} ${r.name}`} onClick={() => confirmDelete(r)}>
            {t('list.delete')}
          </Button>
        </Space>
      ),
    },
  ];

  return (
    <Flex vertical gap={12}>
      <Flex justify="space-between" align="flex-start" gap={12} wrap>
        <FilterBar<Filters>
          value={list.filters}
          onChange={list.setFilters}
          onReset={list.reset}
          applyOnChange={['status']}
          label="rule-filters"
        >
          <Form.Item name="keyword" label={t('list.keyword')}>
            <Input allowClear style={{ width: 200 }} />
          </Form.Item>
          <Form.Item name="status" label={t('list.statusFilter')}>
            <Select allowClear placeholder={t('all')} style={{ width: 140 }} options={ruleStatusSchema.options.map((s) => ({ value: s, label: t(`status.${s}`) }))} />
          </Form.Item>
        </FilterBar>
        <Dropdown
          trigger={['click']}
          menu={{
            items: [...RULE_TEMPLATE_KEYS, 'blank' as const].map((k) => ({
              key: k,
              label: (
                <Flex vertical style={{ maxWidth: 320 }}>
                  <Typography.Text strong>{t(`template.${k}`)}</Typography.Text>
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {t(`template.${k}Body`)}
                  </Typography.Text>
                </Flex>
              ),
            })),
            onClick: ({ key }) => fromTemplate(key as RuleTemplateKey | 'blank'),
          }}
        >
          <Button type="primary" icon={<PlusOutlined />}>
            {t('list.newRule')} <DownOutlined />
          </Button>
        </Dropdown>
      </Flex>
      <ListTable<HostingRule, NonNullable<typeof rules.data>> list={list} result={rules} rowKey="id" columns={columns} empty={{ text: t('list.empty') }} />
      <RuleEditor open={editing !== null} id={editing?.id} initial={editing?.initial ?? blankRule()} lang={lang} onClose={() => setEditing(null)} />
      <DryRunModal result={dry?.result ?? null} name={dry?.name ?? ''} lang={lang} onClose={() => setDry(null)} />
      <Modal open={running !== null} title={running ? t('list.runTitle', { name: running.name }) : ''} onCancel={() => setRunning(null)} footer={null} destroyOnHidden>
        {running && (
          <Flex vertical gap={12}>
            <TaskProgress
              taskId={running.taskId}
              onClose={() => setRunning(null)}
              onFinished={() => void Promise.all([qc.invalidateQueries({ queryKey: ruleKeys.all }), qc.invalidateQueries({ queryKey: ruleKeys.history })])}
            />
            <Button
              onClick={() => {
                onHistory(running.id);
                setRunning(null);
              }}
              style={{ alignSelf: 'flex-start' }}
            >
              {t('list.history')}
            </Button>
          </Flex>
        )}
      </Modal>
    </Flex>
  );
}
