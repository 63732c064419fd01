import { AppstoreOutlined, CloudUploadOutlined, DeleteOutlined, EditOutlined, HistoryOutlined, RedoOutlined, ReloadOutlined, UnorderedListOutlined } from '@ant-design/icons';
import type { Material, MaterialKind, Platform, PushMaterialsResult, Task } from '@ads/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Checkbox, Flex, Pagination, Segmented, Select, Typography } from 'antd';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ColumnChooser, ListEmpty, SelectionBar, useColumnPrefs, useListQuery, useRowSelection, useStepBack } from '@/components/list-kit';
import { PageShell } from '@/components/page-shell';
import { TaskProgress } from '@/components/task-progress';
import { TasksDrawer } from '@/components/tasks-drawer';
import { useRouteTitle } from '@/components/use-route-title';
import { confirmAction } from '@/lib/confirm';
import { hasAnyPath, hasPath, useViewer } from '@/lib/permissions';
import { useSession } from '@/stores/session-store';
import '@/locales/materials-namespace';
import { useDeleteMaterials } from '../api/use-delete-materials';
import { useMaterialFacets } from '../api/use-material-facets';
import { materialKeys, materialsBody, materialsQuerySchema, useMaterials, type MaterialsPreset, type MaterialsQuery } from '../api/use-materials';
import { useRetryPushes } from '../api/use-retry-pushes';
import { BulkEditModal } from '../components/bulk-edit-modal';
import { FILTER_KEYS, MaterialFilters } from '../components/material-filters';
import { MaterialDrawer } from '../components/material-drawer';
import { MaterialGrid } from '../components/material-grid';
import { DEFAULT_HIDDEN_COLUMNS, materialColumns, MaterialTable } from '../components/material-table';
import { PushModal } from '../components/push-modal';
import { UploadPanel } from '../components/upload-panel';
import { useOnUploadFinished, useUploadQueue } from '../upload/upload-store';

export type MaterialsMode = 'upload' | 'drama' | 'ec';

const PATHS: Record<MaterialsMode, string> = { upload: '/material/upload', drama: '/advertising/video', ec: '/advertising/upload-ec' };
const PRESETS: Record<MaterialsMode, MaterialsPreset> = { upload: {}, drama: { platform: 'dj', kind: 'video' }, ec: { platform: 'ec' } };
// The server lets the materials pages read the catalog and ad-account lists too (scope applies);
// the checks stay so a role's paths are still the one source of truth.
const MATERIAL_PAGES = ['/material/upload', '/advertising/video', '/advertising/upload-ec'];
const CATALOG_PATHS = ['/auth/site', ...MATERIAL_PAGES];
const AD_ACCOUNT_PATHS = ['/auth/account', '/operation/account', ...MATERIAL_PAGES];
const VIEW_KEY = 'materials:view';
const materialId = (m: Material) => m.id;

/** The grid's sort choices and the list body's sort they stand for. */
const SORTS = {
  newest: {},
  oldest: { sort_field: 'created_at', sort_order: 'ascend' },
  name: { sort_field: 'file_name', sort_order: 'ascend' },
  largest: { sort_field: 'size_bytes', sort_order: 'descend' },
  longest: { sort_field: 'duration_s', sort_order: 'descend' },
} as const satisfies Record<string, Pick<MaterialsQuery, 'sort_field' | 'sort_order'>>;
type SortKey = keyof typeof SORTS;
const sortKeyOf = (q: MaterialsQuery): SortKey | undefined =>
  (Object.keys(SORTS) as SortKey[]).find((k) => {
    const s: { sort_field?: string; sort_order?: string } = SORTS[k];
    return s.sort_field === q.sort_field && (s.sort_order === q.sort_order || !q.sort_field);
  });

function storedView(): 'grid' | 'list' {
  try {
    return localStorage.getItem(VIEW_KEY) === 'list' ? 'list' : 'grid';
  } catch {
    return 'grid';
  }
}

/**
 * 素材管理: the upload panel and the library (grid or list, filters in the URL, bulk edit, push
 * and delete, a drawer with the player, details and pushes). 上传素材 shows everything; 短剧素材
 * and 电商素材 open the same library fixed to drama videos or e-commerce materials.
 */
export function MaterialsScreen({ mode }: { mode: MaterialsMode }) {
  const { t } = useTranslation('materials');
  const { t: tc } = useTranslation();
  const { modal, message } = App.useApp();
  const queryClient = useQueryClient();
  const title = useRouteTitle(PATHS[mode]);
  const viewer = useViewer();
  const userPlatform = useSession((s) => s.userInfo?.platform);
  const preset = PRESETS[mode];
  const list = useListQuery(materialsQuerySchema, { filterKeys: FILTER_KEYS });
  const { query } = list;
  const body = useMemo(() => materialsBody(query, preset), [query, preset]);
  const materials = useMaterials(body);
  const facets = useMaterialFacets(preset.platform ?? query.platform);
  const deleteMaterials = useDeleteMaterials();
  const retry = useRetryPushes();
  const { queue } = useUploadQueue();
  const columnPrefs = useColumnPrefs('/material/library', DEFAULT_HIDDEN_COLUMNS);

  const canPickCatalog = hasAnyPath(viewer, CATALOG_PATHS);
  const canPickAdAccount = hasAnyPath(viewer, AD_ACCOUNT_PATHS);
  const canUpload = hasPath(viewer, PATHS[mode]);

  const [showUpload, setShowUpload] = useState(mode === 'upload');
  const selection = useRowSelection<Material>(materialId);
  const [editTarget, setEditTarget] = useState<Material[] | null>(null);
  const [pushTarget, setPushTarget] = useState<Material[] | null>(null);
  const [opened, setOpened] = useState<Material | undefined>(undefined);
  const [running, setRunning] = useState<number[]>([]);
  const [tasksOpen, setTasksOpen] = useState(false);
  const view = query.view ?? storedView();

  useOnUploadFinished(
    queue,
    useCallback(() => void queryClient.invalidateQueries({ queryKey: materialKeys.all }), [queryClient]),
  );

  useStepBack(list, materials);

  const setView = (next: 'grid' | 'list') => {
    try {
      localStorage.setItem(VIEW_KEY, next);
    } catch {
      // Remembered for this visit only.
    }
    list.patch({ view: next });
  };

  const openMaterial = (m: Material) => {
    setOpened(m);
    list.patch({ material: m.id });
  };
  const closeMaterial = () => list.patch({ material: undefined });

  const toggle = selection.toggle;
  const clearSelection = selection.clear;
  const selectedRows = selection.rows;
  const pageRows = materials.data?.list ?? [];
  const pageSelected = pageRows.filter((m) => selection.has(m.id)).length;

  const handleDelete = (targets: Material[]) => {
    const inUse = targets.filter((m) => m.ads_using > 0);
    const free = targets.filter((m) => m.ads_using === 0);
    const inUseList = (
      <ul style={{ margin: '4px 0', paddingInlineStart: 20 }}>
        {inUse.slice(0, 10).map((m) => (
          <li key={m.id}>{`${m.file_name} (${t('card.inUse', { count: m.ads_using })})`}</li>
        ))}
      </ul>
    );
    if (!free.length) {
      modal.warning({ title: t('delete.allInUseTitle'), content: <Flex vertical>{t('delete.allInUse')}{inUseList}</Flex>, okText: tc('actions.close') });
      return;
    }
    confirmAction(modal, {
      title: targets.length === 1 ? t('delete.titleOne', { name: free[0]!.file_name }) : t('delete.title', { count: free.length }),
      content: (
        <Flex vertical gap={4}>
          <span>{t('delete.body')}</span>
          {inUse.length > 0 && (
            <Typography.Text type="warning">
              {t('delete.inUse')}
              {inUseList}
              {t('delete.onlyUnused', { count: free.length })}
            </Typography.Text>
          )}
        </Flex>
      ),
      okText: t('delete.ok'),
      danger: true,
      action: async () => {
        const ids = free.map((m) => m.id);
        const { deleted } = await deleteMaterials.mutateAsync(ids);
        message.success(t('delete.deleted', { count: deleted }));
        selection.drop(ids);
        if (query.material !== undefined && ids.includes(query.material)) closeMaterial();
      },
    });
  };

  const handlePushed = (result: PushMaterialsResult) => {
    setPushTarget(null);
    if (result.task_id !== null) setRunning((prev) => [...prev.filter((id) => id !== result.task_id), result.task_id!]);
  };
  const addTask = useCallback((taskId: number) => setRunning((prev) => [...prev.filter((id) => id !== taskId), taskId]), []);
  const handleTaskFinished = useCallback((_task: Task) => void queryClient.invalidateQueries({ queryKey: materialKeys.all }), [queryClient]);

  const handleRetrySelected = async () => {
    const failed = selectedRows.filter((m) => m.push_counts.failed > 0);
    if (!failed.length) {
      message.info(t('retry.none'));
      return;
    }
    try {
      for (const m of failed) {
        const result = await retry.mutateAsync({ material_id: m.id });
        if (result.task_id !== null) addTask(result.task_id);
      }
      message.success(t('retry.done'));
    } catch {
      // Shown by the request layer.
    }
  };

  const choosable = useMemo(() => materialColumns({ t, tc }), [t, tc]);

  const empty = {
    text: mode === 'upload' ? t('library.empty') : t('library.emptyPreset'),
    action:
      mode !== 'upload' && canUpload && !showUpload ? (
        <Button type="primary" icon={<CloudUploadOutlined />} onClick={() => setShowUpload(true)}>
          {t('upload.show')}
        </Button>
      ) : undefined,
  };

  const drawerInitial = opened?.id === query.material ? opened : materials.data?.list.find((m) => m.id === query.material);

  return (
    <PageShell
      title={title}
      extra={
        <>
          <Button icon={<HistoryOutlined />} onClick={() => setTasksOpen(true)}>
            {t('actions.tasks')}
          </Button>
          {canUpload && (
            <Button type={showUpload ? 'default' : 'primary'} icon={<CloudUploadOutlined />} onClick={() => setShowUpload((v) => !v)}>
              {showUpload ? t('upload.hide') : t('upload.show')}
            </Button>
          )}
        </>
      }
    >
      {showUpload && canUpload && (
        <Card size="small">
          <UploadPanel
            lockedPlatform={preset.platform}
            defaultPlatform={(userPlatform as Platform | undefined) ?? 'dj'}
            canPickCatalog={canPickCatalog}
            facets={facets.data}
            onOpenMaterial={openMaterial}
            onSelectMaterials={(uploaded) => {
              selection.set(uploaded);
              message.success(t('upload.selectedUploaded', { count: uploaded.length }));
            }}
          />
        </Card>
      )}
      {running.map((taskId) => (
        <TaskProgress key={taskId} taskId={taskId} onFinished={handleTaskFinished} onClose={() => setRunning((prev) => prev.filter((id) => id !== taskId))} />
      ))}
      <Card size="small">
        <MaterialFilters
          value={list.filters}
          onChange={list.setFilters}
          onReset={list.reset}
          lockedPlatform={preset.platform}
          lockedKind={preset.kind as MaterialKind | undefined}
          facets={facets.data}
          canPickCatalog={canPickCatalog}
          canPickAdAccount={canPickAdAccount}
        />
      </Card>
      <Card size="small" styles={{ body: { padding: 0 } }}>
        <Flex justify="space-between" align="center" gap={8} wrap style={{ padding: '10px 12px' }}>
          <Flex gap={12} align="center" wrap>
            <Segmented<'grid' | 'list'>
              value={view}
              onChange={setView}
              options={[
                { value: 'grid', icon: <AppstoreOutlined />, label: t('library.grid') },
                { value: 'list', icon: <UnorderedListOutlined />, label: t('library.list') },
              ]}
            />
            {view === 'grid' && (
              <>
                <Checkbox
                  checked={pageRows.length > 0 && pageSelected === pageRows.length}
                  indeterminate={pageSelected > 0 && pageSelected < pageRows.length}
                  disabled={!pageRows.length}
                  onChange={(e) => pageRows.forEach((m) => toggle(m, e.target.checked))}
                >
                  {t('library.selectPage')}
                </Checkbox>
                <Select<SortKey>
                  aria-label={t('library.sort.label')}
                  value={sortKeyOf(query) ?? 'newest'}
                  style={{ width: 140 }}
                  onChange={(k) => list.patch({ page: 1, sort_field: undefined, sort_order: undefined, ...SORTS[k] })}
                  options={(Object.keys(SORTS) as SortKey[]).map((k) => ({ value: k, label: t(`library.sort.${k}`) }))}
                />
              </>
            )}
          </Flex>
          <Flex gap={8} align="center">
            {view === 'list' && <ColumnChooser columns={choosable} prefs={columnPrefs} />}
            <Button icon={<ReloadOutlined />} loading={materials.isFetching} onClick={() => void materials.refetch()} aria-label={tc('actions.refresh')} />
          </Flex>
        </Flex>
        <SelectionBar count={selection.count} onClear={clearSelection}>
          <Button size="small" type="primary" icon={<CloudUploadOutlined />} onClick={() => setPushTarget(selectedRows)}>
            {t('actions.push')}
          </Button>
          <Button size="small" icon={<EditOutlined />} onClick={() => setEditTarget(selectedRows)}>
            {t('actions.bulkEdit')}
          </Button>
          {selectedRows.some((m) => m.push_counts.failed > 0) && (
            <Button size="small" icon={<RedoOutlined />} loading={retry.isPending} onClick={() => void handleRetrySelected()}>
              {t('actions.retryFailed')}
            </Button>
          )}
          <Button size="small" danger icon={<DeleteOutlined />} onClick={() => handleDelete(selectedRows)}>
            {t('actions.delete')}
          </Button>
        </SelectionBar>
        {view === 'grid' ? (
          <>
            <MaterialGrid
              list={materials.data?.list}
              loading={materials.isFetching && (materials.isPlaceholderData || materials.isPending)}
              empty={<ListEmpty result={materials} filtered={list.hasFilters} {...empty} />}
              selectedIds={new Set(selection.keys)}
              onToggle={toggle}
              onOpen={openMaterial}
            />
            {(materials.data?.total ?? 0) > 0 && (
              <Flex justify="flex-end" style={{ padding: '0 12px 12px' }}>
                <Pagination {...list.pagination(materials.data?.total)} />
              </Flex>
            )}
          </>
        ) : (
          <MaterialTable
            list={list}
            result={materials}
            hidden={columnPrefs.hidden}
            empty={empty}
            selection={selection}
            onOpen={openMaterial}
            onPush={(m) => setPushTarget([m])}
            onDelete={(m) => handleDelete([m])}
          />
        )}
      </Card>

      <MaterialDrawer
        id={query.material}
        initial={drawerInitial}
        facets={facets.data}
        canPickCatalog={canPickCatalog}
        onClose={closeMaterial}
        onPush={(m) => setPushTarget([m])}
        onDelete={(m) => handleDelete([m])}
        onTask={addTask}
      />
      <BulkEditModal
        materials={editTarget}
        facets={facets.data}
        canPickCatalog={canPickCatalog}
        onClose={() => setEditTarget(null)}
        onSaved={() => setEditTarget(null)}
      />
      <PushModal materials={pushTarget} canPickAdAccount={canPickAdAccount} onClose={() => setPushTarget(null)} onPushed={handlePushed} />
      <TasksDrawer open={tasksOpen} onClose={() => setTasksOpen(false)} />
    </PageShell>
  );
}
