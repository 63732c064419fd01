import { useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { isTaskFinished, useTask } from '@/lib/lookups/use-tasks';
import '@/locales/assets-namespace';
import { cronKeys } from '../api/use-cron-jobs';
import { useFormatDuration } from './use-explain-cron';

interface Props {
  id: number;
  title: string;
  onDone: (id: number) => void;
}

/** Follows one run started with "run now" until it ends, then says how it went and refreshes the screen. */
export function RunWatcher({ id, title, onDone }: Props) {
  const { t } = useTranslation('cron');
  const { t: ta } = useTranslation('assets');
  const { notification } = App.useApp();
  const queryClient = useQueryClient();
  const duration = useFormatDuration();
  const task = useTask(id);
  const reported = useRef(false);
  const data = task.data;

  useEffect(() => {
    if (!data || !isTaskFinished(data) || reported.current) return;
    reported.current = true;
    const ms = data.started_at && data.finished_at ? new Date(data.finished_at).getTime() - new Date(data.started_at).getTime() : 0;
    const text = t('jobs.finished', { title, status: ta(`taskStatus.${data.status}`), duration: duration(Math.max(0, ms)) });
    const kind = data.status === 'success' ? 'success' : data.status === 'failed' ? 'error' : 'warning';
    notification[kind]({ title: text, description: data.error ?? data.message ?? undefined, duration: 6 });
    void queryClient.invalidateQueries({ queryKey: cronKeys.all });
    onDone(id);
  }, [data, id, title, t, ta, duration, notification, queryClient, onDone]);

  // Polling stopped on an error: let the lists' own refresh take over.
  useEffect(() => {
    if (task.isError) onDone(id);
  }, [task.isError, id, onDone]);

  return null;
}
