import { idBodySchema, pageResultSchema } from '../envelope.ts';
import {
  batchEditMaterialsBodySchema,
  checkMaterialHashBodySchema,
  checkMaterialHashResultSchema,
  deleteMaterialsBodySchema,
  editMaterialBodySchema,
  listMaterialsBodySchema,
  listPushesBodySchema,
  materialFacetsBodySchema,
  materialFacetsSchema,
  materialPushSchema,
  materialSchema,
  pushMaterialsBodySchema,
  pushMaterialsResultSchema,
  retryPushesBodySchema,
  uploadResultBodySchema,
  uploadResultSchema,
} from '../materials.ts';
import { z } from 'zod';
import { define } from './define.ts';

/** The three materials screens share one library (and the tus uploads, which are not JSON calls). */
export const MATERIAL_PATHS = ['/material/upload', '/advertising/video', '/advertising/upload-ec'] as const;

/** Materials (素材管理), docs/api-materials.md. */
export const materials = {
  list: define({ path: '/materials/list', body: listMaterialsBodySchema, answer: pageResultSchema(materialSchema), allow: MATERIAL_PATHS, tag: 'materials' }),
  facets: define({ path: '/materials/facets', body: materialFacetsBodySchema.nullable(), answer: materialFacetsSchema, allow: MATERIAL_PATHS, tag: 'materials' }),
  get: define({ path: '/materials/get', body: idBodySchema, answer: materialSchema, allow: MATERIAL_PATHS, tag: 'materials' }),
  edit: define({ path: '/materials/edit', body: editMaterialBodySchema, answer: materialSchema, allow: MATERIAL_PATHS, tag: 'materials' }),
  batch_edit: define({ path: '/materials/batch_edit', body: batchEditMaterialsBodySchema, answer: z.object({ updated: z.number().int() }), allow: MATERIAL_PATHS, tag: 'materials' }),
  delete: define({ path: '/materials/delete', body: deleteMaterialsBodySchema, answer: z.object({ deleted: z.number().int() }), allow: MATERIAL_PATHS, tag: 'materials' }),
  check_hash: define({ path: '/materials/check_hash', body: checkMaterialHashBodySchema, answer: checkMaterialHashResultSchema, allow: MATERIAL_PATHS, tag: 'materials' }),
  push: define({ path: '/materials/push', body: pushMaterialsBodySchema, answer: pushMaterialsResultSchema, allow: MATERIAL_PATHS, tag: 'materials' }),
  pushes: define({ path: '/materials/pushes', body: listPushesBodySchema, answer: pageResultSchema(materialPushSchema), allow: MATERIAL_PATHS, tag: 'materials' }),
  retry_push: define({ path: '/materials/retry_push', body: retryPushesBodySchema, answer: pushMaterialsResultSchema, allow: MATERIAL_PATHS, tag: 'materials' }),
  /** What became of a finished tus upload (the upload itself goes to MATERIAL_TUS_PATH). */
  upload_result: define({ path: '/materials/upload_result', body: uploadResultBodySchema, answer: uploadResultSchema, allow: MATERIAL_PATHS, tag: 'materials' }),
};
