export * from './codes.js';
export * from './enums.js';
export * from './rules.js';
export * from './schemas.js';
export * from './i18n.js';
export * from './functions.js';
export * from './menu.js';
