export * from './direction.js';
export * from './exports.js';
export * from './import-graph.js';
export * from './judge-structure.js';
