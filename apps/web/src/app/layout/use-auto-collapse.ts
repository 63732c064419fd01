import { useEffect, useState } from 'react';

/** SPEC.md §2/§9: collapse under 768 px, re-evaluated on resize at most every 500 ms. */
export const NARROW_BREAKPOINT = 768;
export const RESIZE_THROTTLE_MS = 500;

export function throttle<A extends unknown[]>(fn: (...args: A) => void, ms: number) {
  let last = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  return (...args: A) => {
    const now = Date.now();
    const wait = ms - (now - last);
    if (wait <= 0) {
      last = now;
      fn(...args);
    } else {
      // Trailing call, so the final size after a drag is always evaluated.
      clearTimeout(timer);
      timer = setTimeout(() => {
        last = Date.now();
        fn(...args);
      }, wait);
    }
  };
}

export function useAutoCollapse(): [boolean, (v: boolean) => void] {
  const [collapsed, setCollapsed] = useState(() => window.innerWidth < NARROW_BREAKPOINT);
  useEffect(() => {
    const onResize = throttle(() => setCollapsed(window.innerWidth < NARROW_BREAKPOINT), RESIZE_THROTTLE_MS);
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
  return [collapsed, setCollapsed];
}
