// The one module tests import their helpers from; each file behind it holds one concern.
export * from './report-fixtures.js';
