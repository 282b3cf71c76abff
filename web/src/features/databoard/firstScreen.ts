/**
 * The device monitor's first page (its cards per page to begin with) and, for the views that
 * still load the whole list, its first screen. Their own module (no imports), because the boot's
 * preload (app/pages.tsx) names them too and must not pull the board's code into the login route.
 */
export const FIRST_SCREEN = 200;
export const BOARD_PAGE_SIZE = 50;
