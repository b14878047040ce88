// What one of a stage's descriptors is given at spawn: a descriptor of safe-run's to hand over,
// safe-run's own (inherit), or nothing ('ignore': /dev/null for 0-2, not open above 2).
export type StdioSlot = number | 'inherit' | 'ignore';
