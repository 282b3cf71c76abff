import type { RoutePlan } from '@coldwatch/simulator';

/**
 * The route of the demo's vehicles (Vaccine Van 01, docs/transport.md): from the fleet yard by
 * Huangpu (the Fleet scene) along Yan'an Road and across the river to a clinic in Pudong, 40
 * minutes each way with 40-minute stops at each end. The yard is a place (DEMO_PLACES): leaving it
 * starts a delivery trip, coming back ends it, and the 40 minutes at the clinic in between open
 * "retention" at its default of 30.
 */
export const VAN_ROUTE: RoutePlan = {
  points: [
    { lat: 31.2252, lng: 121.4801 },
    { lat: 31.2281, lng: 121.4838 },
    { lat: 31.2305, lng: 121.4874 },
    { lat: 31.2334, lng: 121.4925 },
    { lat: 31.2376, lng: 121.4992 },
    { lat: 31.2397, lng: 121.5068 },
    { lat: 31.2362, lng: 121.5156 },
    { lat: 31.2318, lng: 121.5261 },
    { lat: 31.2265, lng: 121.5372 },
    { lat: 31.2214, lng: 121.5445 },
  ],
  legMs: 40 * 60_000,
  stopMs: 40 * 60_000,
};

/** The demo customer's places (docs/transport.md "Places"): the yard VAN_ROUTE starts from. */
export const DEMO_PLACES = [{ name: 'Fleet yard', ...VAN_ROUTE.points[0], radiusM: 300 }] as const;
