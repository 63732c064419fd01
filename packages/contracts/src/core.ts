/**
 * The part of the contracts that needs no zod: codes, constants, the route table and path
 * rules. The web app's eager code imports from here so the login page does not load zod.
 */
export * from './codes.ts';
export * from './routes.ts';
export * from './paths.ts';
export * from './rules.ts';
export * from './endpoints/define.ts';
export * from './endpoints/session-calls.ts';
