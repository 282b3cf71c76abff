/**
 * The five home styles (spec §2 /homepageset; docs/home.md) as layouts: each style places the
 * chosen widgets, in the user's order, on antd's 24-column grid, and says whether the carrier
 * tiles open the page. Which widgets and in which order is the user's; where they go is the style's.
 */
import { allowedWidgets, DEFAULT_WIDGETS, type HomeStyle, type HomeWidget } from '@coldwatch/contract';

export interface Span {
  xs: number;
  md: number;
  xl: number;
}

/** Widgets that need width (a map, a table): never narrower than half the page on a wide screen. */
const WIDE: readonly HomeWidget[] = ['mapMonitor', 'listMonitor'];

export interface StyleLayout {
  /** The five carrier tiles above the widgets. */
  kpis: boolean;
  /** A dark monitoring-wall page (class cw-home-wall). */
  dark: boolean;
  /** The page's greatest width in px (none: the whole pane). */
  maxWidth?: number;
  span: (widget: HomeWidget, index: number) => Span;
}

const full: Span = { xs: 24, md: 24, xl: 24 };
const half: Span = { xs: 24, md: 12, xl: 12 };

export const STYLE_LAYOUTS: Record<HomeStyle, StyleLayout> = {
  // Two columns, alternating wide and narrow, as the home was before styles existed.
  classic: { kpis: true, dark: false, span: (w, i) => (WIDE.includes(w) ? full : { xs: 24, md: 24, xl: i % 4 === 0 || i % 4 === 3 ? 14 : 10 }) },
  // The first widget across the page, the rest two by two.
  focus: { kpis: false, dark: false, span: (w, i) => (i === 0 || WIDE.includes(w) ? full : half) },
  // Three by three: many small widgets at a glance.
  grid: { kpis: true, dark: false, span: (w) => (WIDE.includes(w) ? { xs: 24, md: 24, xl: 16 } : { xs: 24, md: 12, xl: 8 }) },
  // One narrow column: reading from top to bottom, on a laptop as on a phone.
  column: { kpis: false, dark: false, maxWidth: 880, span: () => full },
  // A dark wall for a screen in the monitoring room: tiles, then two by two.
  wall: { kpis: true, dark: true, span: (w) => (WIDE.includes(w) ? full : half) },
};

/** The widgets a home shows: the saved ones the user may still see, else the default, in order. */
export function shownWidgets(saved: readonly HomeWidget[] | undefined, has: (func: string) => boolean): HomeWidget[] {
  const allowed = allowedWidgets(has);
  return (saved ?? DEFAULT_WIDGETS).filter((w) => allowed.includes(w));
}
