export * from './core.ts';
export * from './envelope.ts';
export * from './session.ts';
export * from './sys.ts';
export * from './messages.ts';
export * from './assets.ts';
export * from './jobs.ts';
export * from './materials.ts';
