import type { Page } from '@playwright/test';

/** An sRGB colour, 0–255 per channel. */
export type Rgb = [number, number, number];

/** WCAG 2.x relative luminance. */
export function luminance([r, g, b]: Rgb): number {
  const channel = (value: number) => {
    const c = value / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

/** WCAG 2.x contrast ratio, 1 to 21. */
export function contrast(a: Rgb, b: Rgb): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

export interface FocusRing {
  /** What has focus: tag, role and name, for messages. */
  element: string;
  style: string;
  width: number;
  offset: number;
  /** The ring colour (its alpha: 1 means opaque). */
  ring: Rgb;
  ringAlpha: number;
  /** The surface the ring is drawn on: the backgrounds behind the element, composited. */
  behind: Rgb;
  /** The element's own face (its background over `behind`). */
  face: Rgb;
}

/**
 * The focused element's ring as the browser paints it. Colours are resolved by a canvas, so any CSS
 * syntax (oklch, color-mix, alpha) comes back as sRGB; stacked translucent backgrounds are composited
 * in order, from the page down to the element.
 */
export function focusRing(page: Page): Promise<FocusRing | null> {
  return page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    if (!element || element === document.body) return null;
    const canvas = document.createElement('canvas');
    canvas.width = 1;
    canvas.height = 1;
    const ctx = canvas.getContext('2d', { willReadFrequently: true }) as CanvasRenderingContext2D;
    const pixel = (): [number, number, number] => {
      const [r, g, b] = ctx.getImageData(0, 0, 1, 1).data;
      return [r as number, g as number, b as number];
    };
    const paint = (colors: string[]) => {
      ctx.clearRect(0, 0, 1, 1);
      ctx.fillStyle = '#fff';
      ctx.fillRect(0, 0, 1, 1);
      for (const color of colors) {
        ctx.fillStyle = color;
        ctx.fillRect(0, 0, 1, 1);
      }
      return pixel();
    };
    const layers: string[] = [];
    for (let node = element.parentElement; node; node = node.parentElement) {
      layers.unshift(getComputedStyle(node).backgroundColor);
    }
    const style = getComputedStyle(element);
    ctx.clearRect(0, 0, 1, 1);
    ctx.fillStyle = style.outlineColor;
    ctx.fillRect(0, 0, 1, 1);
    const ringAlpha = (ctx.getImageData(0, 0, 1, 1).data[3] as number) / 255;
    const role = element.getAttribute('role');
    const name = element.getAttribute('aria-label') ?? element.textContent?.trim().slice(0, 40);
    return {
      element: `${element.tagName.toLowerCase()}${role ? `[role=${role}]` : ''} "${name}"`,
      style: style.outlineStyle,
      width: Number.parseFloat(style.outlineWidth),
      offset: Number.parseFloat(style.outlineOffset),
      ring: paint([style.outlineColor]),
      ringAlpha,
      behind: paint(layers),
      face: paint([...layers, style.backgroundColor]),
    };
  });
}

/**
 * The ratios that matter for a ring (WCAG 1.4.11): against the surface around the control, and against
 * the control's own face (where the ring sits inside the control, or right next to a filled button).
 */
export function ringContrast(ring: FocusRing): { behind: number; face: number } {
  return { behind: contrast(ring.ring, ring.behind), face: contrast(ring.ring, ring.face) };
}
