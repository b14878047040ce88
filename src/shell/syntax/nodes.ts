// The syntax tree's types live in src/model/ (the plan holds a parsed text); this is their home in the
// syntax room.
export type * from '../../model/shell-tree.js';
