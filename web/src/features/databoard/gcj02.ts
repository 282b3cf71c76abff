/**
 * WGS-84 (GPS, what the scene's coordinates are) to GCJ-02 (what Chinese map providers' tiles
 * are drawn in), only inside China's bounds (spec §9): elsewhere both are the same. The
 * published approximation (Krasovsky ellipsoid), accurate to about a metre.
 */
const A = 6378245.0;
const EE = 0.006693421622965943;

/** The rough bounding box used by every implementation of this conversion. */
export const inChina = (lng: number, lat: number) => lng >= 72.004 && lng <= 137.8347 && lat >= 0.8293 && lat <= 55.8271;

function dLat(x: number, y: number) {
  let r = -100 + 2 * x + 3 * y + 0.2 * y * y + 0.1 * x * y + 0.2 * Math.sqrt(Math.abs(x));
  r += ((20 * Math.sin(6 * x * Math.PI) + 20 * Math.sin(2 * x * Math.PI)) * 2) / 3;
  r += ((20 * Math.sin(y * Math.PI) + 40 * Math.sin((y / 3) * Math.PI)) * 2) / 3;
  r += ((160 * Math.sin((y / 12) * Math.PI) + 320 * Math.sin((y * Math.PI) / 30)) * 2) / 3;
  return r;
}

function dLng(x: number, y: number) {
  let r = 300 + x + 2 * y + 0.1 * x * x + 0.1 * x * y + 0.1 * Math.sqrt(Math.abs(x));
  r += ((20 * Math.sin(6 * x * Math.PI) + 20 * Math.sin(2 * x * Math.PI)) * 2) / 3;
  r += ((20 * Math.sin(x * Math.PI) + 40 * Math.sin((x / 3) * Math.PI)) * 2) / 3;
  r += ((150 * Math.sin((x / 12) * Math.PI) + 300 * Math.sin((x / 30) * Math.PI)) * 2) / 3;
  return r;
}

export function wgs84ToGcj02(lng: number, lat: number): [number, number] {
  if (!inChina(lng, lat)) return [lng, lat];
  let la = dLat(lng - 105, lat - 35);
  let lo = dLng(lng - 105, lat - 35);
  const rad = (lat / 180) * Math.PI;
  let magic = Math.sin(rad);
  magic = 1 - EE * magic * magic;
  const sq = Math.sqrt(magic);
  la = (la * 180) / (((A * (1 - EE)) / (magic * sq)) * Math.PI);
  lo = (lo * 180) / ((A / sq) * Math.cos(rad) * Math.PI);
  return [lng + lo, lat + la];
}
