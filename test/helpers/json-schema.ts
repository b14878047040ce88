// A checker for the subset of JSON Schema the published schemas use (type, const, enum, properties,
// required, additionalProperties: false, items, oneOf, $ref to #/$defs, minimum, maximum, minItems).
// Returns the list of problems, each with its path; empty when the value conforms.
type Schema = Record<string, unknown>;

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

export function validate(value: unknown, schema: Schema, root: Schema = schema, path = '$'): string[] {
  if (typeof schema.$ref === 'string') {
    const name = schema.$ref.replace('#/$defs/', '');
    const defs = root.$defs as Record<string, Schema>;
    return validate(value, defs[name]!, root, path);
  }
  const problems: string[] = [];
  if (schema.oneOf) {
    const matches = (schema.oneOf as Schema[]).filter(
      (option) => validate(value, option, root, path).length === 0,
    );
    if (matches.length !== 1) problems.push(`${path}: matches ${matches.length} of oneOf`);
    return problems;
  }
  if ('const' in schema && value !== schema.const) problems.push(`${path}: expected ${String(schema.const)}`);
  if (schema.enum && !(schema.enum as unknown[]).includes(value))
    problems.push(`${path}: ${String(value)} not in enum`);
  if (schema.type) {
    const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string];
    const actual = typeOf(value);
    const ok = types.includes(actual) || (actual === 'integer' && types.includes('number'));
    if (!ok) return [...problems, `${path}: expected ${types.join('|')}, got ${actual}`];
  }
  if (typeof value === 'number') {
    if (typeof schema.minimum === 'number' && value < schema.minimum) problems.push(`${path}: below minimum`);
    if (typeof schema.maximum === 'number' && value > schema.maximum) problems.push(`${path}: above maximum`);
  }
  if (Array.isArray(value)) {
    if (typeof schema.minItems === 'number' && value.length < schema.minItems)
      problems.push(`${path}: too few items`);
    if (schema.items) {
      for (const [i, item] of value.entries()) {
        problems.push(...validate(item, schema.items as Schema, root, `${path}[${i}]`));
      }
    }
  }
  if (typeOf(value) === 'object') {
    const object = value as Record<string, unknown>;
    const properties = (schema.properties ?? {}) as Record<string, Schema>;
    for (const key of (schema.required ?? []) as string[]) {
      if (!(key in object)) problems.push(`${path}.${key}: required`);
    }
    for (const [key, item] of Object.entries(object)) {
      if (properties[key]) problems.push(...validate(item, properties[key]!, root, `${path}.${key}`));
      else if (schema.additionalProperties === false) problems.push(`${path}.${key}: not in the schema`);
    }
  }
  return problems;
}
