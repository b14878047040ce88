import { pushAll } from '../../arrays.js';
import type { Bytes } from '../syntax/source.js';
import { type Chunk, type Field, newField } from './fields.js';

// The words an expansion is building, left to right: text goes onto the last one; the values of
// "$@" or "${a[@]}" start new words after the first.
export class Builder {
  readonly fields: Field[] = [newField()];

  get current(): Field {
    return this.fields.at(-1)!;
  }

  add(text: Bytes, quoted: boolean, split: boolean): void {
    this.current.chunks.push({ text, quoted, split });
  }

  addChunk(chunk: Chunk): void {
    this.current.chunks.push(chunk);
  }

  // The word has a quoted part: it stays even when it ends up empty.
  keep(): void {
    this.current.kept = true;
  }

  // Several values, each its own word: the first joins what is before it, the last what comes after.
  addValues(values: readonly Bytes[], quoted: boolean, split: boolean): void {
    values.forEach((value, i) => {
      if (i > 0) this.fields.push(newField());
      this.add(value, quoted, split);
      if (quoted) this.keep();
    });
  }

  // Words built elsewhere (an operator's word holding "$@"), joined in the same way.
  addFields(fields: readonly Field[]): void {
    fields.forEach((field, i) => {
      if (i > 0) this.fields.push(newField());
      pushAll(this.current.chunks, field.chunks);
      if (field.kept) this.keep();
    });
  }
}
