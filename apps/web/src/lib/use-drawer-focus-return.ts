import { useLayoutEffect, useRef } from 'react';

/**
 * Drawer props that give focus back to the drawer's opener after it closes, but only when focus
 * is still lost (on the page body or inside the closed drawer). antd's own return runs when the
 * close animation ends, whatever happened since: a person who already clicked into a search box
 * and pressed Enter had the Enter land on the opener instead (it reopened the drawer).
 */
export function useDrawerFocusReturn(open: boolean) {
  const opener = useRef<HTMLElement | null>(null);
  const panel = useRef<HTMLDivElement | null>(null);
  useLayoutEffect(() => {
    if (open) opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  }, [open]);
  return {
    focusable: { focusTriggerAfterClose: false },
    panelRef: panel,
    afterOpenChange: (isOpen: boolean) => {
      if (isOpen) return;
      const active = document.activeElement;
      const lost = !active || active === document.body || Boolean(panel.current?.contains(active));
      if (lost && opener.current?.isConnected) opener.current.focus({ preventScroll: true });
    },
  };
}
