import { NAME_MAX, type CreateDepartmentBody, type DepartmentNode, type EditDepartmentBody } from '@ads/contracts';
import { App, Form, Input, InputNumber, Modal } from 'antd';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { DepartmentTreeSelect } from '@/components/department-tree-select';
import { UserPicker } from '@/components/user-picker';
import { applyFieldErrors } from '@/lib/form-errors';
import { canCreateDepartmentUnder, isManager, subtreeIds, type Viewer } from '@/lib/permissions';
import { useCreateDepartment } from '../api/use-create-department';
import { useEditDepartment } from '../api/use-edit-department';
import { findNode } from './department-tree-utils';

export type DepartmentFormTarget =
  | { mode: 'create'; parentId: number | null }
  | { mode: 'edit' | 'move' | 'leader'; node: DepartmentNode };

interface FormValues {
  name?: string;
  parent_id?: number | null;
  sort?: number | null;
  leader_id?: number | null;
}

const SORT_MAX = 100_000;

interface Props {
  target: DepartmentFormTarget | null;
  tree: readonly DepartmentNode[];
  viewer: Viewer;
  onClose: () => void;
}

/** Create a department, or rename / re-sort (edit), move, or set the leader of one. */
export function DepartmentFormModal({ target, tree, viewer, onClose }: Props) {
  const { t } = useTranslation('sys');
  const { t: tc } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<FormValues>();
  const createDepartment = useCreateDepartment();
  const editDepartment = useEditDepartment();
  const mode = target?.mode;
  const node = target && target.mode !== 'create' ? target.node : null;

  // A department cannot move under itself or anything below it, so those are not offered.
  const excluded = useMemo(() => (node && mode === 'move' ? new Set(subtreeIds(tree, node.id)) : undefined), [tree, node, mode]);
  const isSelectable = useMemo(() => (id: number) => canCreateDepartmentUnder(viewer, tree, id), [viewer, tree]);

  useEffect(() => {
    if (!target) return;
    form.resetFields();
    if (target.mode === 'create') form.setFieldsValue({ parent_id: target.parentId, sort: 0, leader_id: null });
    else form.setFieldsValue({ name: target.node.name, sort: target.node.sort, parent_id: target.node.parent_id, leader_id: target.node.leader_id });
  }, [form, target]);

  const title = !target
    ? ''
    : target.mode === 'create'
      ? target.parentId
        ? t('departments.form.createChildTitle', { parent: findNode(tree, target.parentId)?.name ?? '' })
        : t('departments.form.createTitle')
      : t(`departments.form.${target.mode}Title`, { name: target.node.name });

  const handleFinish = async (v: FormValues) => {
    try {
      if (!target) return;
      if (target.mode === 'create') {
        const body: CreateDepartmentBody = { name: (v.name ?? '').trim(), parent_id: v.parent_id ?? null, sort: v.sort ?? 0, leader_id: v.leader_id ?? null };
        await createDepartment.mutateAsync(body);
        message.success(t('departments.created'));
      } else {
        const id = target.node.id;
        const body: EditDepartmentBody =
          target.mode === 'edit'
            ? { id, name: (v.name ?? '').trim(), sort: v.sort ?? 0 }
            : target.mode === 'move'
              ? { id, parent_id: v.parent_id ?? null }
              : { id, leader_id: v.leader_id ?? null };
        await editDepartment.mutateAsync(body);
        message.success(target.mode === 'move' ? t('departments.moved') : t('departments.saved'));
      }
      onClose();
    } catch (err) {
      applyFieldErrors(form, err);
    }
  };

  const currentParent = node?.parent_id ? (findNode(tree, node.parent_id)?.name ?? '') : t('departments.form.topLevel');
  const show = {
    name: mode === 'create' || mode === 'edit',
    parent: mode === 'create' || mode === 'move',
    sort: mode === 'create' || mode === 'edit',
    // Appointing a leader grants leadership: managers only (the server refuses others).
    leader: isManager(viewer) && (mode === 'create' || mode === 'leader'),
  };

  return (
    <Modal
      open={target !== null}
      title={title}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={tc('actions.save')}
      cancelText={tc('actions.cancel')}
      confirmLoading={createDepartment.isPending || editDepartment.isPending}
      // Kept mounted so the form instance stays connected; fields are reset on every open.
      forceRender
    >
      <Form<FormValues> form={form} layout="vertical" onFinish={handleFinish} name="department-form" style={{ marginTop: 16 }} autoComplete="off">
        {show.name && (
          <Form.Item
            name="name"
            label={t('departments.form.name')}
            validateFirst
            rules={[
              { required: true, whitespace: true, message: t('departments.form.nameRequired') },
              { validator: async (_, v?: string) => { if ((v ?? '').trim().length > NAME_MAX) throw new Error(t('departments.form.nameLength')); } },
            ]}
          >
            <Input maxLength={64} />
          </Form.Item>
        )}
        {show.parent && (
          <Form.Item
            name="parent_id"
            label={t('departments.form.parent')}
            extra={
              mode === 'move' ? (
                <>
                  <div>{t('departments.form.currentParent', { parent: currentParent })}</div>
                  <div>{t('departments.form.moveHelp')}</div>
                </>
              ) : undefined
            }
          >
            <DepartmentTreeSelect tree={tree} exclude={excluded} isSelectable={isSelectable} placeholder={t('departments.form.parentPlaceholder')} />
          </Form.Item>
        )}
        {show.sort && (
          <Form.Item name="sort" label={t('departments.form.sort')} extra={t('departments.form.sortHelp')}>
            <InputNumber min={0} max={SORT_MAX} precision={0} style={{ width: 160 }} />
          </Form.Item>
        )}
        {show.leader && (
          <Form.Item name="leader_id" label={t('departments.form.leader')} extra={mode === 'leader' ? t('departments.form.leaderHelp') : undefined}>
            <UserPicker currentLabel={node?.leader_name} placeholder={t('departments.form.leaderPlaceholder')} />
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
}
