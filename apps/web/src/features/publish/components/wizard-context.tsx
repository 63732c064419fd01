import type { Platform, PublishAccountOption, PublishCatalogItem, PublishMaterial } from '@ads/contracts';
import { createContext, useContext } from 'react';

/** What the steps share besides the form: the platform, what step 1 picked and the materials seen so far. */
export interface WizardShared {
  platform: Platform;
  /** The drama or product of step 1, once known (a loaded draft knows only its id until the catalog answers). */
  title: PublishCatalogItem | null;
  setTitle: (item: PublishCatalogItem | null) => void;
  /** Every material the wizard has shown, by id (names and thumbnails of those picked). */
  materials: ReadonlyMap<number, PublishMaterial>;
  rememberMaterials: (list: readonly PublishMaterial[]) => void;
  /** The ad accounts of /publish/accounts, by id. */
  accounts: ReadonlyMap<number, PublishAccountOption>;
  /** Units of each currency per US dollar today. */
  fx: Readonly<Record<string, number>>;
  /** Jumps to a step (a check's "fix it" link). */
  goTo: (step: number) => void;
}

export const WizardContext = createContext<WizardShared | null>(null);

export function useWizard(): WizardShared {
  const ctx = useContext(WizardContext);
  if (!ctx) throw new Error('useWizard outside the publish wizard');
  return ctx;
}
