import fc from 'fast-check';

type Schema = Record<string, unknown>;

/**
 * A fast-check arbitrary of the values a JSON Schema (as `GET /openapi.json` writes them: `$ref` to
 * `#/components/schemas/`, `oneOf`/`anyOf`, `const`, `type` lists, string `pattern`/`minLength`/
 * `maxLength`/`format: date`, integer bounds, objects with `required`) describes. `not: {}` properties
 * are never generated. Strings obey their `pattern` or their lengths (both, when the pattern is met).
 */
export function arbitraryFromSchema(schema: Schema, components: Record<string, Schema>): fc.Arbitrary<unknown> {
  const of = (inner: Schema): fc.Arbitrary<unknown> => arbitraryFromSchema(inner, components);
  if (typeof schema.$ref === 'string') return of(components[schema.$ref.split('/').pop()!]!);
  const variants = (schema.oneOf ?? schema.anyOf) as Schema[] | undefined;
  if (variants) return fc.oneof(...variants.map(of));
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  if (Array.isArray(schema.type)) return fc.oneof(...(schema.type as string[]).map((type) => of({ ...schema, type })));
  switch (schema.type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return fc.integer({ min: (schema.minimum as number) ?? -1e6, max: (schema.maximum as number) ?? 1e6 });
    case 'number':
      return fc.double({ noNaN: true, noDefaultInfinity: true });
    case 'string':
      return stringArbitrary(schema);
    case 'array':
      return fc.array(of((schema.items as Schema) ?? {}), { maxLength: 3 });
    case 'object':
      return objectArbitrary(schema, of);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function stringArbitrary(schema: Schema): fc.Arbitrary<string> {
  if (schema.format === 'date') return fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
  const minLength = (schema.minLength as number | undefined) ?? 0;
  const maxLength = Math.min((schema.maxLength as number | undefined) ?? 40, 600);
  if (typeof schema.pattern !== 'string') return fc.string({ minLength, maxLength, unit: 'grapheme' });
  const pattern = new RegExp(schema.pattern);
  return fc.stringMatching(pattern).filter((value) => value.length >= minLength && value.length <= maxLength);
}

function objectArbitrary(schema: Schema, of: (inner: Schema) => fc.Arbitrary<unknown>): fc.Arbitrary<Record<string, unknown>> {
  const properties = Object.entries((schema.properties ?? {}) as Record<string, Schema>).filter(([, property]) => !isNever(property));
  const required = new Set((schema.required ?? []) as string[]);
  return fc.record(Object.fromEntries(properties.map(([name, property]) => [name, of(property)])), {
    requiredKeys: properties.map(([name]) => name).filter((name) => required.has(name)),
  }) as fc.Arbitrary<Record<string, unknown>>;
}

function isNever(schema: Schema): boolean {
  return typeof schema.not === 'object' && schema.not !== null && Object.keys(schema.not).length === 0;
}
