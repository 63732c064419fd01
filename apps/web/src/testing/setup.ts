import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import '@/lib/i18n';
import { assertNoMockProblems } from './mock-api';

// Screens render real antd components; on a busy 2-core machine a second is not always enough.
configure({ asyncUtilTimeout: 5000 });

// antd reads media queries (Grid, Table responsive columns); happy-dom answers "no match".
if (!window.matchMedia) {
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    value: (query: string) => ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    }),
  });
}

// Object URLs for downloads.
URL.createObjectURL ??= () => 'blob:mock';
URL.revokeObjectURL ??= () => undefined;

afterEach(() => {
  cleanup();
  localStorage.clear();
  vi.unstubAllGlobals();
  assertNoMockProblems();
});
