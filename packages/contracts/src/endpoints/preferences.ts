import { getPreferenceQuerySchema, preferenceSchema, putPreferenceBodySchema } from '../preferences.ts';
import { define } from './define.ts';

/** A user's own preferences (column choices and saved sets): any signed-in user, on their own rows only. */
export const userPreferences = {
  get: define({ path: '/user-preferences/get', body: getPreferenceQuerySchema, answer: preferenceSchema, allow: 'user', tag: 'user-preferences' }),
  save: define({ path: '/user-preferences/save', body: putPreferenceBodySchema, answer: preferenceSchema, allow: 'user', tag: 'user-preferences' }),
};
