import { useCallback, useRef, useState } from 'react';

/**
 * True once the element has come within `margin` of the viewport, and from then on. The chart library is
 * the heaviest code of the console: on a phone the chart sits below the four metric cards, and loading it
 * only when it is about to be seen keeps its parsing out of the first screen's time to interactive.
 */
export function useSeen<T extends Element>(margin = '50px'): [(element: T | null) => void, boolean] {
  const [seen, setSeen] = useState(false);
  const observer = useRef<IntersectionObserver | null>(null);
  const ref = useCallback(
    (element: T | null) => {
      observer.current?.disconnect();
      observer.current = null;
      if (!element || seen) return;
      observer.current = new IntersectionObserver(
        (entries) => {
          if (!entries.some((entry) => entry.isIntersecting)) return;
          observer.current?.disconnect();
          setSeen(true);
        },
        { rootMargin: margin },
      );
      observer.current.observe(element);
    },
    [margin, seen],
  );
  return [ref, seen];
}
