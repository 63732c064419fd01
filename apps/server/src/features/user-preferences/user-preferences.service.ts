import { PREFERENCE_MAX_KEYS, type Preference } from '@ads/contracts';
import type { Db } from '../../db/database.ts';
import { AppError } from '../../errors.ts';
import type { Actor } from '../../lib/actor.ts';
import type { Clock } from '../../lib/clock.ts';
import * as repo from './user-preferences.repository.ts';

export interface UserPreferenceServiceDeps {
  db: Db;
  clock: Clock;
}

/** A user's own preferences: each user reads and writes only their own keys. */
export function createUserPreferenceService({ db, clock }: UserPreferenceServiceDeps) {
  const toPreference = (key: string, row: repo.PreferenceRow | undefined): Preference => ({
    key,
    value: row?.value ?? null,
    updated_at: row ? row.updated_at.toISOString() : null,
  });
  return {
    /** The value under `key`, null when the user has none. */
    async get(actor: Actor, key: string): Promise<Preference> {
      return toPreference(key, await repo.findPreference(db, actor.id, key));
    },
    /** Stores a validated value; a new key beyond the per-user cap is refused (PREFERENCE_LIMIT). */
    async put(actor: Actor, key: string, value: unknown): Promise<Preference> {
      return db.transaction().execute(async (trx) => {
        const existing = await repo.findPreference(trx, actor.id, key);
        if (!existing && (await repo.countPreferences(trx, actor.id)) >= PREFERENCE_MAX_KEYS) throw new AppError('PREFERENCE_LIMIT', { max: PREFERENCE_MAX_KEYS });
        return toPreference(key, await repo.upsertPreference(trx, actor.id, key, value, clock.now()));
      });
    },
  };
}

export type UserPreferenceService = ReturnType<typeof createUserPreferenceService>;
