// The one module tests import their helpers from; each file behind it holds one concern.
export * from './against-bash.js';
export * from './cli.js';
export * from './json-schema.js';
export * from './output-scratch.js';
export * from './pipeline-plan.js';
export * from './poll.js';
export * from './processes.js';
export * from './report-fixtures.js';
export * from './request-errors.js';
export * from './scratch.js';
export * from './sizes.js';
