import {
  batchEditMaterialsBodySchema,
  checkMaterialHashBodySchema,
  checkMaterialHashResultSchema,
  deleteMaterialsBodySchema,
  editMaterialBodySchema,
  idBodySchema,
  listMaterialsBodySchema,
  listPushesBodySchema,
  materialFacetsBodySchema,
  materialFacetsSchema,
  materialPushSchema,
  materialSchema,
  pageResultSchema,
  pushMaterialsBodySchema,
  pushMaterialsResultSchema,
  retryPushesBodySchema,
  uploadResultBodySchema,
  uploadResultSchema,
} from '@ads/contracts';
import { z } from 'zod';

/**
 * The calls of the 素材管理 screens (contracts/materials.ts), with the contract schemas of their
 * bodies and answers.
 */
export const materialEndpoints = {
  '/materials/list': { request: listMaterialsBodySchema, response: pageResultSchema(materialSchema) },
  '/materials/facets': { request: materialFacetsBodySchema, response: materialFacetsSchema },
  '/materials/get': { request: idBodySchema, response: materialSchema },
  '/materials/edit': { request: editMaterialBodySchema, response: materialSchema },
  '/materials/batch_edit': { request: batchEditMaterialsBodySchema, response: z.object({ updated: z.number().int() }) },
  '/materials/delete': { request: deleteMaterialsBodySchema, response: z.object({ deleted: z.number().int() }) },
  '/materials/check_hash': { request: checkMaterialHashBodySchema, response: checkMaterialHashResultSchema },
  '/materials/upload_result': { request: uploadResultBodySchema, response: uploadResultSchema },
  '/materials/push': { request: pushMaterialsBodySchema, response: pushMaterialsResultSchema },
  '/materials/pushes': { request: listPushesBodySchema, response: pageResultSchema(materialPushSchema) },
  '/materials/retry_push': { request: retryPushesBodySchema, response: pushMaterialsResultSchema },
} as const;
