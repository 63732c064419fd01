import { define } from '@ads/contracts';
import Fastify from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { registerErrorHandler } from '../plugins/error-handler.ts';
import '../plugins/types.ts';
import { endpoint } from './endpoint.ts';

const double = define({ path: '/probe/double', body: z.object({ n: z.number().int() }), answer: z.object({ doubled: z.number().int() }), allow: ['/sys/role'], tag: 'probe' });
const open = define({ path: '/probe/open', answer: z.null(), allow: 'public', tag: 'probe' });

/** A bare app with the table call registered the way features do (no auth: that is plugins/auth.ts). */
async function probeApp(checkAnswers: boolean, answer: (n: number) => unknown) {
  const app = Fastify({ logger: false });
  app.setValidatorCompiler(validatorCompiler);
  // As app.ts: answers are not re-validated by the serializer; endpoint() checks them when asked.
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  app.decorate('answerMismatches', checkAnswers ? [] : null);
  app.decorateRequest('lang', 'en');
  registerErrorHandler(app);
  const configs: unknown[] = [];
  app.addHook('onRoute', (r) => void configs.push(r.config));
  await app.register(
    async (api) => {
      endpoint(api, double, async (req) => answer(req.body.n) as { doubled: number });
      endpoint(api, open, async () => null);
    },
    { prefix: '/api' },
  );
  await app.ready();
  const post = async (url: string, body: unknown) => (await app.inject({ method: 'POST', url, payload: body as object })).json();
  return { app, configs, post };
}

describe('endpoint()', () => {
  it('registers the call at its path with the permission of the table, and wraps the answer in the envelope', async () => {
    const { app, configs, post } = await probeApp(true, (n) => ({ doubled: n * 2 }));
    expect(configs).toContainEqual(expect.objectContaining({ paths: ['/sys/role'] }));
    expect(configs).toContainEqual(expect.objectContaining({ public: true }));
    expect(await post('/api/probe/double', { n: 4 })).toEqual({ code: 0, message: 'ok', data: { doubled: 8 } });
    expect(await post('/api/probe/open', {})).toEqual({ code: 0, message: 'ok', data: null });
    expect(app.answerMismatches).toEqual([]);
  });

  it('refuses a body that breaks the body schema before the handler runs', async () => {
    let ran = false;
    const { post } = await probeApp(true, (n) => ((ran = true), { doubled: n }));
    const res = await post('/api/probe/double', { n: 'four' });
    expect(res.code).toBe(-2);
    expect(res.data.errors[0].field).toBe('n');
    expect(ran).toBe(false);
  });

  it('fails a call whose answer breaks the answer schema, and records it, when answers are checked', async () => {
    const { app, post } = await probeApp(true, (n) => ({ doubled: String(n * 2) }));
    const res = await post('/api/probe/double', { n: 1 });
    expect(res.code).toBe(-2);
    expect(app.answerMismatches).toHaveLength(1);
    expect(app.answerMismatches![0]).toContain('POST /api/probe/double answered off its contract');
  });

  it('sends the answer unchecked when answers are not checked (production)', async () => {
    const { app, post } = await probeApp(false, (n) => ({ doubled: String(n * 2) }));
    expect(await post('/api/probe/double', { n: 1 })).toEqual({ code: 0, message: 'ok', data: { doubled: '2' } });
    expect(app.answerMismatches).toBeNull();
  });
});
