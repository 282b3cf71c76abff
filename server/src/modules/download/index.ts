/**
 * The download centre's door for other modules (docs/exports.md): `storeDownload` makes a
 * download record of a customer's user and stores a file as it (a PDF report, kind 'report').
 */
export { storeDownload, type StoreMeta, type Stored } from './download.service.js';
export type { Produce } from './download.store.js';
