import { z } from 'zod';
import { idBodySchema, pageResultSchema } from '../envelope.ts';
import {
  linkPreviewBodySchema,
  linkPreviewSchema,
  listSchemeItemsBodySchema,
  listSchemesBodySchema,
  listTemplatesBodySchema,
  PUBLISH_PATHS,
  publishAccountsBodySchema,
  publishAccountsResultSchema,
  publishCatalogBodySchema,
  publishCatalogResultSchema,
  publishMaterialSchema,
  publishMaterialsBodySchema,
  publishPreviewBodySchema,
  publishPreviewSchema,
  publishSubmitBodySchema,
  publishSubmitResultSchema,
  publishTemplateSchema,
  saveTemplateBodySchema,
  schemeActionResultSchema,
  schemeDetailSchema,
  schemeDraftResultSchema,
  schemeItemPageSchema,
  schemeSchema,
} from '../publish.ts';
import { define } from './define.ts';

// Publishing (issue 8). Both wizards share every call; a draft's platform needs its own path
// (dj → /advertising/publish, ec → /advertising/publish-ec), checked by the server, which also
// checks that every ad account, page, pixel, material and drama/product is in the caller's scope.

/** The wizard: lookups, preview and submit. */
export const publish = {
  accounts: define({ path: '/publish/accounts', body: publishAccountsBodySchema, answer: publishAccountsResultSchema, allow: PUBLISH_PATHS, tag: 'publish', summary: 'Ad accounts the caller may publish to: currency, time zone, balance, token health, pages and pixels' }),
  catalog: define({ path: '/publish/catalog', body: publishCatalogBodySchema, answer: publishCatalogResultSchema, allow: PUBLISH_PATHS, tag: 'publish', summary: 'Dramas (dj) or products (ec) with their site, for step 1' }),
  materials: define({ path: '/publish/materials', body: publishMaterialsBodySchema, answer: pageResultSchema(publishMaterialSchema), allow: PUBLISH_PATHS, tag: 'publish', summary: 'Library materials for step 2, with the accounts each is ready on' }),
  link_preview: define({ path: '/publish/link_preview', body: linkPreviewBodySchema, answer: linkPreviewSchema, allow: PUBLISH_PATHS, tag: 'publish', summary: "The site's landing link for a drama/product and episode, placeholders as url_tags macros" }),
  preview: define({ path: '/publish/preview', body: publishPreviewBodySchema, answer: publishPreviewSchema, allow: PUBLISH_PATHS, tag: 'publish', summary: 'Every object a draft creates, its totals and every check (ours and validate-only); errors block' }),
  submit: define({ path: '/publish/submit', body: publishSubmitBodySchema, answer: publishSubmitResultSchema, allow: PUBLISH_PATHS, tag: 'publish', summary: 'Stores a scheme with its items and queues its run' }),
};

/** Schemes (方案): list, detail with per-item progress, retry failed, cancel, new from a past one. */
export const publishSchemes = {
  list: define({ path: '/publish-schemes/list', body: listSchemesBodySchema, answer: pageResultSchema(schemeSchema), allow: PUBLISH_PATHS, tag: 'publish', summary: 'Schemes in the caller’s scope with progress counts' }),
  get: define({ path: '/publish-schemes/get', body: idBodySchema, answer: schemeDetailSchema, allow: PUBLISH_PATHS, tag: 'publish', summary: 'One scheme: its draft and progress per account' }),
  items: define({ path: '/publish-schemes/items', body: listSchemeItemsBodySchema, answer: schemeItemPageSchema, allow: PUBLISH_PATHS, tag: 'publish', summary: 'A scheme’s items (campaigns, ad sets, creatives, ads) with status, platform id and reason' }),
  retry_failed: define({ path: '/publish-schemes/retry_failed', body: idBodySchema, answer: schemeActionResultSchema, allow: PUBLISH_PATHS, tag: 'publish', summary: 'Runs the failed items again (and only them); no object is created twice' }),
  cancel: define({ path: '/publish-schemes/cancel', body: idBodySchema, answer: schemeActionResultSchema, allow: PUBLISH_PATHS, tag: 'publish', summary: 'Stops the scheme after the item under way; the rest becomes cancelled' }),
  draft: define({ path: '/publish-schemes/draft', body: idBodySchema, answer: schemeDraftResultSchema, allow: PUBLISH_PATHS, tag: 'publish', summary: 'New from a past scheme: its draft to load in the wizard' }),
};

/** Templates of steps 3–4: personal or shared with the department. */
export const publishTemplates = {
  list: define({ path: '/publish-templates/list', body: listTemplatesBodySchema, answer: z.object({ list: z.array(publishTemplateSchema) }), allow: PUBLISH_PATHS, tag: 'publish', summary: 'The caller’s templates and those shared with their department' }),
  save: define({ path: '/publish-templates/save', body: saveTemplateBodySchema, answer: publishTemplateSchema, allow: PUBLISH_PATHS, tag: 'publish', summary: 'Creates or edits a template (owner or manager)' }),
  delete: define({ path: '/publish-templates/delete', body: idBodySchema, answer: z.object({ deleted: z.number().int() }), allow: PUBLISH_PATHS, tag: 'publish', summary: 'Deletes a template (owner or manager)' }),
};
