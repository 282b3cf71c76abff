/**
 * Carriers of the first screen the device monitor asks for first: what a wide screen shows, and
 * some. Its own module (no imports), because the boot's preload (app/pages.tsx) names it too and
 * must not pull the board's code into the login route.
 */
export const FIRST_SCREEN = 200;
