/**
 * The guided tour of spec §2 (home exceptions, handling, history data, alarm switch, export,
 * transport code): where each step points and which function it needs. A step is shown only
 * to a user holding its function, and only when its element is on the page (a carrier in
 * transport mode has a transport code; an empty exception list has no row to point at).
 */
export interface TourStep {
  /** Catalogue key under tour:step.<key> (title, text). */
  key: string;
  /** The page the element is on; the tour opens it. */
  path: string;
  /** The element pointed at (the first match). */
  target: string;
  /** Function codes, any one of which shows the step. */
  funcs: readonly string[];
}

export const TOUR_STEPS: readonly TourStep[] = [
  { key: 'exceptions', path: '/home', target: '[data-testid="widget-latest-exceptions"]', funcs: ['viewEx'] },
  { key: 'handle', path: '/home', target: '.cw-latest li .cw-latest-title', funcs: ['editEx'] },
  { key: 'history', path: '/home', target: '.cw-latest li .cw-latest-history', funcs: ['viewHistory'] },
  { key: 'alarmSwitch', path: '/databoard/monitoringPoint', target: '.cw-content [data-alarm]', funcs: ['viewMonitorPointRealTime'] },
  { key: 'export', path: '/databoard/monitoringPoint', target: '[data-tour="export"]', funcs: ['viewMonitorPointRealTime'] },
  { key: 'transportCode', path: '/carrier/vehicle', target: '[data-tour="transport-code"]', funcs: ['viewCar'] },
];

/** The steps this user may see. */
export const stepsFor = (can: (code: string) => boolean, steps: readonly TourStep[] = TOUR_STEPS) => steps.filter((s) => s.funcs.some((f) => can(f)));

/** Session flag: the tour was finished or skipped in this session (spec §2: dismissal remembered for the session). */
export const TOUR_DISMISSED = 'tourDismissed';

/** The spec's start delay. */
export const TOUR_DELAY_MS = 500;
/** How long a step waits for its element on a page still loading before it is passed over. */
export const TARGET_WAIT_MS = 4000;

/** The guide's articles a tour step may take its texts from (share/guide: group "tour", article "tour.<key>"). */
interface GuideBookLike {
  code: string;
  items: { code: string; nameZh: string; nameEn: string; contentZh: string; contentEn: string }[];
}

/**
 * A step's title and text from the guide (spec §2: the tours read their texts from the guide,
 * so platform staff edit them there), in the guide's two languages; null when the guide has no
 * such article or not in this language (the catalogue's text is shown then).
 */
export function stepText(book: readonly GuideBookLike[] | undefined, key: string, lang: string): { title: string; text: string } | null {
  const item = book?.find((g) => g.code === 'tour')?.items.find((i) => i.code === `tour.${key}`);
  if (!item) return null;
  const [title, text] = lang.startsWith('zh') ? [item.nameZh, item.contentZh] : lang.startsWith('en') ? [item.nameEn, item.contentEn] : ['', ''];
  return title && text ? { title, text } : null;
}
