export * from './direction.js';
export * from './import-graph.js';
export * from './judge-structure.js';
